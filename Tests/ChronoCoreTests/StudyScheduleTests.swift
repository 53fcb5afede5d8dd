import ChronoCore
import Testing

/// `StudySchedule.status` on virtual time: days pass by changing `now`, nothing waits.
@Suite("Study schedule")
struct StudyScheduleTests {
    static let start: Int64 = 1_795_737_600 * 1_000_000_000  // 2026-11-27 00:00 UTC
    static let hour: Int64 = 3_600 * 1_000_000_000
    static let day: Int64 = 24 * hour

    static func plan() throws -> StudyPlan {
        StudyPlan(studyProtocol: try StudyPlanTests.example(), participant: "P017", participantIndex: 0, seed: 42)
    }

    static func status(_ completions: [(Int, Int64)], at now: Int64) throws -> StudySchedule.Status {
        StudySchedule.status(plan: try plan(), startUnixNanoseconds: start,
                             completions: completions.map { StudySchedule.Completion(position: $0.0, endedUnixNanoseconds: $0.1) },
                             nowUnixNanoseconds: now)
    }

    @Test("before the start every session is upcoming and the first is due at the start")
    func beforeStart() throws {
        let status = try Self.status([], at: Self.start - Self.hour)
        #expect(status.states == Array(repeating: .upcoming, count: 28))
        #expect(status.day == nil && status.next == 0 && status.nextDueUnixNanoseconds == Self.start)
    }

    @Test("day 0 at 09:00: both of today's sessions due, the first now")
    func firstMorning() throws {
        let status = try Self.status([], at: Self.start + 9 * Self.hour)
        #expect(status.states.prefix(3) == [.due, .due, .upcoming])
        #expect((status.done, status.due, status.missed, status.upcoming) == (0, 2, 0, 26))
        #expect(status.day == 0 && status.next == 0 && status.nextDueUnixNanoseconds == Self.start)
    }

    @Test("one done at 09:00: the second is due three hours later (the minimum gap)")
    func gap() throws {
        let status = try Self.status([(0, Self.start + 9 * Self.hour)], at: Self.start + 10 * Self.hour)
        #expect(status.states.prefix(3) == [.done, .due, .upcoming])
        #expect(status.next == 1 && status.nextDueUnixNanoseconds == Self.start + 12 * Self.hour)
    }

    @Test("a day that ends with a session not done leaves it missed; the next day's first is due at its start")
    func missed() throws {
        let status = try Self.status([(0, Self.start + 9 * Self.hour)], at: Self.start + Self.day + Self.hour)
        #expect(status.states.prefix(5) == [.done, .missed, .due, .due, .upcoming])
        #expect((status.done, status.due, status.missed) == (1, 2, 1))
        #expect(status.day == 1 && status.next == 2 && status.nextDueUnixNanoseconds == Self.start + Self.day)
    }

    @Test("a late completion pushes the next day's first past its start by the gap")
    func gapAcrossMidnight() throws {
        let status = try Self.status([(0, Self.start + 9 * Self.hour), (1, Self.start + 23 * Self.hour)], at: Self.start + Self.day)
        #expect(status.next == 2 && status.nextDueUnixNanoseconds == Self.start + Self.day + 2 * Self.hour)
    }

    @Test("after the last day: everything not done is missed, nothing is next; positions outside the plan and repeats are ignored")
    func finished() throws {
        let completions: [(Int, Int64)] = [(0, Self.start + Self.hour), (0, Self.start + 2 * Self.hour), (27, Self.start + 13 * Self.day + 20 * Self.hour), (28, Self.start), (-1, Self.start)]
        let status = try Self.status(completions, at: Self.start + 14 * Self.day)
        #expect((status.done, status.missed, status.due, status.upcoming) == (2, 26, 0, 0))
        #expect(status.day == nil && status.next == nil && status.nextDueUnixNanoseconds == nil && status.finished)
    }

    @Test("the assignment gives the same status as its plan")
    func assignment() throws {
        let assignment = StudyAssignment(studyProtocol: try StudyPlanTests.example(), participant: "P017", participantIndex: 0, seed: 42,
                                         startUnixNanoseconds: Self.start)
        #expect(assignment.plan == (try Self.plan()))
        #expect(assignment.status(completions: [], nowUnixNanoseconds: Self.start + 9 * Self.hour) == (try Self.status([], at: Self.start + 9 * Self.hour)))
    }
}
