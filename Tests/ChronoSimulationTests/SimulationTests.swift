import Testing
import ChronoCore
@testable import ChronoSimulation

@Suite("The simulated person and the virtual clock")
struct SimulationTests {
    @Test("1000 simulated sessions of every mode keep every invariant")
    func thousandSessions() {
        var failures: [String] = []
        var statuses: [SessionStatus: Int] = [:]
        var modes: [SessionMode: Int] = [:]
        SimulationRun(seed: 1).run(sessions: 1000) { result in
            statuses[result.outcome.status, default: 0] += 1
            modes[result.scenario.configuration.mode, default: 0] += 1
            if !result.violations.isEmpty { failures.append(result.line) }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
        // The simulation really exercises every path.
        #expect(statuses[.completed, default: 0] > 700)
        #expect(statuses[.aborted, default: 0] > 20)
        #expect(statuses[.interrupted, default: 0] > 5)
        // The default mix; Reproduction is simulated with its own person (`reproductionPerson`).
        #expect(Set(modes.keys) == [.challenge, .fear, .passive])
    }

    @Test("the same seed gives the same sessions")
    func deterministic() {
        var first: [String] = [], second: [String] = []
        SimulationRun(seed: 42).run(sessions: 50) { first.append($0.line) }
        SimulationRun(seed: 42).run(sessions: 50) { second.append($0.line) }
        #expect(first == second)
    }

    @Test("the checker catches a wrong mark")
    func checkerCatchesWrongMarks() throws {
        var random = SplitMix64(seed: 7)
        var scenario = SimulatedUser.scenario(using: &random)
        while scenario.configuration.mode == .passive || scenario.expectedStatus != .completed {
            scenario = SimulatedUser.scenario(using: &random)
        }
        let transcript = VirtualClock.run(configuration: scenario.configuration, soundAudible: scenario.soundAudible, inputs: scenario.inputs)
        scenario.expectedMarks[0].tap = scenario.expectedMarks[0].tap + .milliseconds(1)
        let anchor = WallClockAnchor(unixNanoseconds: 0, monotonic: .zero, utcOffsetSeconds: 0)
        let outcome = try #require(transcript.outcome)
        let decision = HealthRecordBuilder.decide(for: outcome, sessionID: "ID", device: "d", anchor: anchor)
        let violations = InvariantChecker(anchor: anchor).violations(scenario: scenario, transcript: transcript, record: decision)
        #expect(violations.contains { $0.contains("attempt 1 marked") })
    }

    @Test("session identifiers are UUID-shaped, stable and distinct")
    func identifiers() {
        let a = SessionIdentifier.derived(seed: 1, number: 1)
        #expect(a == SessionIdentifier.derived(seed: 1, number: 1))
        #expect(a != SessionIdentifier.derived(seed: 1, number: 2))
        #expect(a.count == 36)
        #expect(a.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
        #expect(a.split(separator: "-")[2].first == "8")
    }
}
