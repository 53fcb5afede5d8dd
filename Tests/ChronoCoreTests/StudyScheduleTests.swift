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

    static let minute: Int64 = 60 * 1_000_000_000

    @Test("a session's day-end reserve: its attempts at its interval (twice for Reproduction) plus 10 s each, in whole minutes")
    func reserve() throws {
        let plan = try Self.plan()
        // Position 1: Reproduction 30s ×5 = 5 × (60 + 10) s = 350 s → 6 minutes.
        #expect(plan.sessions[1].dayEndReserve == .seconds(360))
        // Position 3: Reproduction 10s ×5 = 5 × (20 + 10) s = 150 s → 3 minutes.
        #expect(plan.sessions[3].dayEndReserve == .seconds(180))
        // Position 7: Challenge 10s ×5 = 5 × (10 + 10) s = 100 s → 2 minutes.
        #expect((plan.sessions[7].mode, plan.sessions[7].dayEndReserve) == (.challenge, .seconds(120)))
    }

    @Test("the gap never carries a session out of its day: done at 22:00, the second is due at 23:54, not 01:00 tomorrow")
    func gapCutAtTheDaysEnd() throws {
        let status = try Self.status([(0, Self.start + 22 * Self.hour)], at: Self.start + 22 * Self.hour + Self.minute)
        #expect(status.states.prefix(3) == [.done, .due, .upcoming])
        #expect(status.next == 1 && status.nextDueUnixNanoseconds == Self.start + Self.day - 6 * Self.minute)
        // The line names a time of the session's own day.
        let standing = StudyStanding(plan: try Self.plan(), startUnixNanoseconds: Self.start,
                                     completions: [StudySchedule.Completion(position: 0, endedUnixNanoseconds: Self.start + 22 * Self.hour)])
        #expect(standing.line(at: Self.start + 22 * Self.hour + Self.minute, utcOffsetSeconds: 0).text
            == "Study sleep-2026 · day 1 · session 2 of 2 · next due 23:54")
        #expect(standing.nextChange(after: Self.start + 22 * Self.hour + Self.minute, utcOffsetSeconds: 0) == Self.start + Self.day - 6 * Self.minute)
        #expect(standing.dueSession(at: Self.start + Self.day - 6 * Self.minute)?.position == 1)
    }

    @Test("done later than the day's end less the reserve: due at once, and missed when the day ends")
    func tooLateForTheGap() throws {
        let done = [(0, Self.start + 23 * Self.hour + 58 * Self.minute)]
        let status = try Self.status(done, at: Self.start + 23 * Self.hour + 59 * Self.minute)
        #expect(status.next == 1 && status.nextDueUnixNanoseconds == Self.start + Self.day - 6 * Self.minute)
        let standing = StudyStanding(plan: try Self.plan(), startUnixNanoseconds: Self.start,
                                     completions: [StudySchedule.Completion(position: 0, endedUnixNanoseconds: done[0].1)])
        #expect(standing.line(at: Self.start + 23 * Self.hour + 59 * Self.minute, utcOffsetSeconds: 0).text
            == "Study sleep-2026 · day 1 · session 2 of 2 · due now")
        let midnight = try Self.status(done, at: Self.start + Self.day)
        #expect(midnight.states.prefix(3) == [.done, .missed, .due] && midnight.next == 2)
    }

    @Test("a gap that ends inside the day is kept whole (09:00 + 3 h), and the next day's first still waits for it")
    func gapInsideTheDay() throws {
        let status = try Self.status([(2, Self.start + Self.day + 20 * Self.hour)], at: Self.start + Self.day + 20 * Self.hour)
        #expect(status.next == 3 && status.nextDueUnixNanoseconds == Self.start + Self.day + 23 * Self.hour)
    }
}
