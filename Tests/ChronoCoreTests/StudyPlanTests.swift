import ChronoCore
import Foundation
import Testing

/// `StudyPlan` and `StudyOrder`: a plan is the same for the same protocol, participant, index and
/// seed; fixed, shuffled and counterbalanced orders are exactly the documented ones.
@Suite("Study plan")
struct StudyPlanTests {
    static func example() throws -> StudyProtocol {
        try StudyProtocol.parse(try String(contentsOfFile: StudyProtocolTests.examplePath, encoding: .utf8))
    }

    @Test("the worked example's plan for participant index 0, seed 42: days, slots, blocks, intervals, feedback")
    func examplePlan() throws {
        let plan = StudyPlan(studyProtocol: try Self.example(), participant: "P017", participantIndex: 0, seed: 42)
        #expect(plan.sessions.count == 28)
        #expect(plan.sessions.map(\.position) == Array(0..<28))
        #expect(plan.sessions.map(\.day) == (0..<28).map { $0 / 2 })
        #expect(plan.sessions.map(\.slot) == (0..<28).map { $0 % 2 })
        #expect(plan.sessions.map(\.blockIndex) == Array(repeating: 0, count: 6) + Array(repeating: 1, count: 14) + [2, 2] + Array(repeating: 3, count: 6))
        #expect(plan.sessions.map(\.interval.seconds) == [
            10, 30, 60, 10, 30, 60,
            60, 10, 30, 10, 30, 60, 30, 60, 10, 30, 60, 10, 10, 60,
            30, 30,
            10, 30, 60, 10, 30, 60,
        ])
        #expect(plan.sessions.map(\.mode) == Array(repeating: .reproduction, count: 6) + Array(repeating: .challenge, count: 14)
            + [.fear, .fear] + Array(repeating: .reproduction, count: 6))
        #expect(plan.sessions.filter(\.isLastInBlock).map(\.position) == [5, 19, 21, 27])
        #expect(plan.sessions.filter(\.needsConsent).map(\.position) == [20, 21])
        #expect(plan.sessions.filter { $0.feedback == .withheld }.map(\.position) == [0, 1, 2, 3, 4, 5, 22, 23, 24, 25, 26, 27])
        #expect(plan.sessions[0].revealAtBlockEnd == false && plan.sessions[27].revealAtBlockEnd == true)
        #expect(plan.sessions[20].fearThreshold == 0.15)
        #expect(plan.tag(for: plan.sessions[23]) == StudyTag(
            protocolName: "sleep-2026", protocolVersion: 1, participant: "P017", blockIndex: 3, blockName: "post",
            planPosition: 23, condition: "feedback-off", feedbackShown: false))
    }

    @Test("deterministic: the same inputs make the same plan; another seed changes only shuffled blocks; another index only counterbalanced ones")
    func deterministic() throws {
        let example = try Self.example()
        let a = StudyPlan(studyProtocol: example, participant: "P1", participantIndex: 0, seed: 42)
        #expect(a == StudyPlan(studyProtocol: example, participant: "P1", participantIndex: 0, seed: 42))
        let otherSeed = StudyPlan(studyProtocol: example, participant: "P1", participantIndex: 0, seed: 43)
        #expect(otherSeed.sessions.filter { $0.blockIndex == 1 }.map(\.interval.seconds) == [10, 30, 60, 60, 10, 30, 60, 10, 30, 10, 30, 60, 10, 60])
        #expect(otherSeed.sessions.filter { $0.blockIndex != 1 } == a.sessions.filter { $0.blockIndex != 1 })
        let otherIndex = StudyPlan(studyProtocol: example, participant: "P1", participantIndex: 4, seed: 42)
        #expect(otherIndex.sessions.filter { $0.blockIndex == 0 }.map(\.interval.seconds) == [10, 60, 30, 10, 60, 30])
        #expect(otherIndex.sessions.filter { $0.blockIndex == 1 } == a.sessions.filter { $0.blockIndex == 1 })
    }

    @Test("fixed cycles the list; shuffled makes a fresh permutation each pass (SplitMix64, the values a Python re-implementation gives)")
    func orders() {
        #expect(StudyOrder.indexes(count: 3, sessions: 7, order: .fixed, seed: 9, blockIndex: 0, participantIndex: 5) == [0, 1, 2, 0, 1, 2, 0])
        #expect(StudyOrder.indexes(count: 4, sessions: 8, order: .shuffled, seed: 0, blockIndex: 0, participantIndex: 0) == [2, 3, 0, 1, 1, 2, 3, 0])
        #expect(StudyOrder.indexes(count: 3, sessions: 14, order: .shuffled, seed: 42, blockIndex: 1, participantIndex: 0)
            == [2, 0, 1, 0, 1, 2, 1, 2, 0, 1, 2, 0, 0, 2])
        var random = StudyRandom(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
    }

    @Test("counterbalanced: Williams' balanced Latin square, n rows for even n, 2n for odd, each interval at each place equally often")
    func latinSquare() {
        #expect((0..<4).map { StudyOrder.balancedLatinSquareRow(count: 4, participantIndex: $0) } == [
            [0, 1, 3, 2], [1, 2, 0, 3], [2, 3, 1, 0], [3, 0, 2, 1],
        ])
        #expect((0..<6).map { StudyOrder.balancedLatinSquareRow(count: 3, participantIndex: $0) } == [
            [0, 1, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0], [0, 2, 1], [1, 0, 2],
        ])
        #expect(StudyOrder.balancedLatinSquareRow(count: 3, participantIndex: 6) == [0, 1, 2])
        for n in 1...6 {
            let rows = (0..<StudyOrder.latinSquareRows(count: n)).map { StudyOrder.balancedLatinSquareRow(count: n, participantIndex: $0) }
            // Every place holds every interval equally often, and every ordered pair of neighbours occurs equally often.
            for place in 0..<n {
                #expect(Set((0..<n).map { value in rows.count { $0[place] == value } }).count == 1)
            }
            var pairs: [[Int]: Int] = [:]
            for row in rows { for k in 0..<(n - 1) { pairs[[row[k], row[k + 1]], default: 0] += 1 } }
            #expect(Set(pairs.values).count <= 1)
            #expect(pairs.count == n * (n - 1))
        }
    }

    @Test("whether a withheld block's results are shown when it ends: the protocol's reveal_at_block_end, for this plan's tags only")
    func revealsAtBlockEnd() throws {
        let plan = StudyPlan(studyProtocol: try Self.example(), participant: "P017", participantIndex: 0, seed: 42)
        // "pre" withholds for good, "training" shows feedback (nothing withheld), "post" reveals at its end.
        #expect(plan.revealsAtBlockEnd(plan.tag(for: plan.sessions[0])) == false)
        #expect(plan.revealsAtBlockEnd(plan.tag(for: plan.sessions[6])) == false)
        #expect(plan.revealsAtBlockEnd(plan.tag(for: plan.sessions[22])) == true)
        var other = plan.tag(for: plan.sessions[22])
        other.participant = "P018"
        #expect(plan.revealsAtBlockEnd(other) == false)
        other = plan.tag(for: plan.sessions[22])
        other.protocolVersion = 2
        #expect(plan.revealsAtBlockEnd(other) == false)
    }
}
