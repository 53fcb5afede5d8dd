import ChronoCore
import ChronoTesting
import Testing

/// `StudyStanding` with consent (docs/STUDIES.md, "Consent"), on given instants: needed, nothing is due
/// and the tap asks; accepted, the plan runs; declined or withdrawn, the study is stopped and nothing
/// changes by itself.
@Suite("Study standing: consent")
struct StudyStandingConsentTests {
    typealias S = StudyStandingTests

    static func standing(_ consent: StudyConsent.Standing, done: [Int] = []) -> StudyStanding {
        StudyStanding(assignment: StudyFixture.assignment,
                      completions: done.map { StudySchedule.Completion(position: $0, endedUnixNanoseconds: S.at(day: 0, hour: 8)) },
                      consent: consent)
    }

    @Test("needed: no due session, the tap meets consent; the line says to open the page; the JSON says needed")
    func needed() {
        let nine = S.at(day: 0, hour: 9)
        let standing = Self.standing(.needed)
        #expect(standing.dueSession(at: nine) == nil)
        #expect(standing.consentNeeded(at: nine))
        // Before study day 0 begins nothing is due, so a tap does not ask yet.
        #expect(!standing.consentNeeded(at: S.start - S.hour))
        let line = standing.line(at: nine, utcOffsetSeconds: 0)
        #expect(line.text == "Study sleep-2026 · consent needed: open the device's page to read it and accept or decline")
        #expect(!line.dueNow && line.consent == .needed && line.day == 1)
        #expect(line.json["consent"] == .string("needed"))
    }

    @Test("accepted and not needed: the plan runs as without consent")
    func accepted() {
        let nine = S.at(day: 0, hour: 9)
        for consent in [StudyConsent.Standing.accepted, .notNeeded] {
            let standing = Self.standing(consent)
            #expect(standing.dueSession(at: nine)?.position == 0)
            #expect(!standing.consentNeeded(at: nine))
            #expect(standing.line(at: nine, utcOffsetSeconds: 0).text == "Study sleep-2026 · day 1 · session 1 of 2 · due now")
        }
    }

    @Test("declined or withdrawn: stopped, nothing due, no cue, no deadline")
    func stopped() {
        let nine = S.at(day: 0, hour: 9)
        let declined = Self.standing(.declined)
        #expect(declined.dueSession(at: nine) == nil && !declined.consentNeeded(at: nine))
        #expect(declined.nextChange(after: nine, utcOffsetSeconds: 0) == nil)
        #expect(declined.line(at: nine, utcOffsetSeconds: 0).text == "Study sleep-2026 · stopped: consent declined · 0 of 6 done")
        let withdrawn = Self.standing(.withdrawn, done: [0])
        let line = withdrawn.line(at: nine, utcOffsetSeconds: 0)
        #expect(line.text == "Study sleep-2026 · stopped: consent withdrawn · 1 of 6 done")
        #expect(!line.dueNow && line.nextDue == nil && line.consent == .withdrawn && !line.finished && line.day == 1 && line.session == 2)
    }
}
