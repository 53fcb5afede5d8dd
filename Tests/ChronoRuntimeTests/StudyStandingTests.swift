import ChronoCore
import ChronoTesting
import Testing

/// The device's study decisions on given wall-clock instants (days pass by changing `now`): what an idle
/// tap starts, the study line word for word, when it changes by itself, and when a withheld block's
/// results may be shown (StudyFixture: 3 days × 2 sessions, 60 minutes apart; blocks baseline (shown),
/// blind (withheld, revealed at its end), sealed (withheld for good)).
@Suite("Study standing: the idle tap's session, the study line, the reveal rule")
struct StudyStandingTests {
    static let start = StudyFixture.startUnixNanoseconds
    static let hour: Int64 = 3_600_000_000_000
    static let minute: Int64 = 60_000_000_000
    static let day: Int64 = 24 * hour

    static func at(day: Int64, hour h: Int64, minute m: Int64 = 0) -> Int64 { start + day * Self.day + h * hour + m * minute }

    static func standing(_ done: [(position: Int, ended: Int64)]) -> StudyStanding {
        StudyStanding(assignment: StudyFixture.assignment,
                      completions: done.map { StudySchedule.Completion(position: $0.position, endedUnixNanoseconds: $0.ended) })
    }

    @Test("day 1 morning: the first session is due; after it, the next is due an hour after it ended")
    func firstDay() {
        let fresh = Self.standing([])
        let nine = Self.at(day: 0, hour: 9)
        #expect(fresh.dueSession(at: nine)?.position == 0)
        #expect(fresh.line(at: nine, utcOffsetSeconds: 0).text == "Study sleep-2026 · day 1 · session 1 of 2 · due now")
        let one = Self.standing([(0, Self.at(day: 0, hour: 9, minute: 10))])
        let half = Self.at(day: 0, hour: 9, minute: 30)
        #expect(one.dueSession(at: half) == nil)
        let line = one.line(at: half, utcOffsetSeconds: 0)
        #expect(line.text == "Study sleep-2026 · day 1 · session 2 of 2 · next due 10:10")
        #expect(line.day == 1 && line.session == 2 && line.done == 1 && line.missed == 0 && !line.dueNow)
        #expect(line.nextDue == WallTime(unixNanoseconds: Self.at(day: 0, hour: 10, minute: 10), utcOffsetSeconds: 0))
        #expect(one.nextChange(after: half, utcOffsetSeconds: 0) == Self.at(day: 0, hour: 10, minute: 10))
        #expect(one.dueSession(at: Self.at(day: 0, hour: 10, minute: 10))?.position == 1)
        // Shown in the device's own offset: an hour east.
        #expect(one.line(at: half, utcOffsetSeconds: 3600).text == "Study sleep-2026 · day 1 · session 2 of 2 · next due 11:10")
    }

    @Test("a day's sessions done: the next is tomorrow; a day passed without them: they are missed and the next day's is due")
    func daysPass() {
        let both = Self.standing([(0, Self.at(day: 0, hour: 9, minute: 10)), (1, Self.at(day: 0, hour: 10, minute: 20))])
        let evening = Self.at(day: 0, hour: 20)
        #expect(both.dueSession(at: evening) == nil)
        #expect(both.line(at: evening, utcOffsetSeconds: 0).text == "Study sleep-2026 · day 2 · session 1 of 2 · next due tomorrow 00:00")
        #expect(both.nextChange(after: evening, utcOffsetSeconds: 0) == Self.at(day: 1, hour: 0))
        #expect(both.dueSession(at: Self.at(day: 1, hour: 0))?.position == 2)

        let none = Self.standing([])
        let secondDay = Self.at(day: 1, hour: 8)
        #expect(none.dueSession(at: secondDay)?.position == 2)
        let line = none.line(at: secondDay, utcOffsetSeconds: 0)
        #expect(line.text == "Study sleep-2026 · day 2 · session 1 of 2 · due now")
        #expect(line.missed == 2 && line.done == 0)
        // Before the study begins: its first day's start, in full.
        let before = Self.start - 3 * Self.day
        #expect(none.dueSession(at: before) == nil)
        #expect(none.line(at: before, utcOffsetSeconds: 0).text == "Study sleep-2026 · day 1 · session 1 of 2 · next due 2026-11-20 00:00")
        #expect(none.nextChange(after: before, utcOffsetSeconds: 0) == before - before % Self.day + Self.day)
    }

    @Test("every session done or missed: finished, nothing due, no deadline")
    func finished() {
        let all = Self.standing((0..<6).map { ($0, Self.at(day: Int64($0 / 2), hour: 9 + Int64($0 % 2) * 2)) })
        let later = Self.at(day: 2, hour: 20)
        #expect(all.dueSession(at: later) == nil)
        let line = all.line(at: later, utcOffsetSeconds: 0)
        #expect(line.text == "Study sleep-2026 · finished · 6 of 6 done")
        #expect(line.finished && line.day == nil && line.nextDue == nil)
        #expect(all.nextChange(after: later, utcOffsetSeconds: 0) == nil)
        #expect(Self.standing([]).line(at: Self.at(day: 5, hour: 0), utcOffsetSeconds: 0).text == "Study sleep-2026 · finished · 0 of 6 done")
    }

    @Test("results: shown for a block with feedback; a withheld block's when all its sessions are done or missed; a sealed block's never")
    func reveal() {
        let plan = StudyFixture.assignment.plan
        let tags = plan.sessions.map(plan.tag(for:))
        let noon = Self.at(day: 1, hour: 12)
        let oneOfBlind = Self.standing([(2, Self.at(day: 1, hour: 9))])
        #expect(oneOfBlind.resultsShown(for: tags[0], at: noon))
        #expect(!oneOfBlind.resultsShown(for: tags[2], at: noon))
        let blindDone = oneOfBlind.completing(StudySchedule.Completion(position: 3, endedUnixNanoseconds: Self.at(day: 1, hour: 11)))
        #expect(blindDone.resultsShown(for: tags[2], at: noon))
        #expect(blindDone.resultsShown(for: tags[3], at: noon))
        // The block's second session missed (its day over): the block has ended.
        #expect(!oneOfBlind.resultsShown(for: tags[2], at: Self.at(day: 1, hour: 23)))
        #expect(oneOfBlind.resultsShown(for: tags[2], at: Self.at(day: 2, hour: 0)))
        let everything = Self.standing((0..<6).map { ($0, Self.at(day: Int64($0 / 2), hour: 9 + Int64($0 % 2) * 2)) })
        #expect(!everything.resultsShown(for: tags[4], at: Self.at(day: 9, hour: 0)))
        var other = tags[2]
        other.protocolVersion = 2
        #expect(!blindDone.resultsShown(for: other, at: noon))
    }

    @Test("the study's JSON: counts, the next due time and the line; never an elapsed time")
    func json() {
        let one = Self.standing([(0, Self.at(day: 0, hour: 9, minute: 10))])
        let json = one.line(at: Self.at(day: 0, hour: 9, minute: 30), utcOffsetSeconds: 0).json
        #expect(json.compactText == #"{"protocol":"sleep-2026","version":1,"day":1,"session":2,"sessions_per_day":2,"sessions":6,"done":1,"missed":0,"next_due":"2026-11-20T10:10:00.000+00:00","due_now":false,"finished":false,"line":"Study sleep-2026 · day 1 · session 2 of 2 · next due 10:10","consent":"not_needed"}"#)
    }
}
