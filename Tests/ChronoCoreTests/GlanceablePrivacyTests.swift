import ChronoCore
import Testing

/// What a glanceable surface withholds with `glanceable-privacy` on: the feedback and the score, and
/// nothing else.
@Suite struct GlanceablePrivacyTests {
    static let status = JSONValue.object([
        ("state", .string("FeedbackFlash")), ("mode", .string("challenge")), ("interval", .string("30s")),
        ("attempt", .int(2)), ("attempt_count", .int(5)), ("health", .string("on")),
        ("last_feedback", .string("Late by 3s · yellow")),
        ("last_session", .object([("date", .string("2026-11-24")), ("interval", .string("30s")), ("time_acuity_score", .int(81))])),
        ("glanceable_privacy", .bool(true)),
    ])

    @Test func offChangesNothing() {
        #expect(GlanceablePrivacy.shown(Self.status, hidden: false).compactText == Self.status.compactText)
    }

    @Test func onNullsTheFeedbackAndTheScoreAndKeepsEveryKey() {
        #expect(GlanceablePrivacy.shown(Self.status, hidden: true).compactText
                == #"{"state":"FeedbackFlash","mode":"challenge","interval":"30s","attempt":2,"attempt_count":5,"health":"on","last_feedback":null,"last_session":{"date":"2026-11-24","interval":"30s","time_acuity_score":null},"glanceable_privacy":true}"#)
        // Not an object: as it is.
        #expect(GlanceablePrivacy.shown(.string("x"), hidden: true) == .string("x"))
    }

    @Test func aParsedDictionaryLosesTheSameMembers() {
        let read: [String: Any] = ["state": "Idle", "last_feedback": "Early by 1s · green",
                                   "last_session": ["date": "2026-11-24", "interval": "30s", "time_acuity_score": 81] as [String: Any]]
        let shown = GlanceablePrivacy.shown(read, hidden: true)
        #expect(shown.keys.sorted() == ["last_session", "state"])
        #expect((shown["last_session"] as? [String: Any])?.keys.sorted() == ["date", "interval"])
        #expect(GlanceablePrivacy.shown(read, hidden: false).keys.sorted() == ["last_feedback", "last_session", "state"])
    }
}
