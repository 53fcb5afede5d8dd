@testable import ChronoAPI
import ChronoCore
import ChronoStore
import ChronoSync
import ChronoTesting
import Foundation
import Testing

/// `GET` and `POST /api/v1/study/consent` (docs/STUDIES.md, "Consent"): the pending consent with the
/// protocol's words, accept, a refused second answer, withdraw; the write route's access rules.
@Suite("Device API: the study's consent")
struct StudyConsentRouteTests {
    @Test("without a study: null, and an answer is refused 409 no_study")
    func noStudy() async throws {
        try await APIHarness.with { api in
            #expect(try await api.request("/api/v1/study/consent").text == #"{"study":null}"#)
            let answer = try await api.request(.POST, "/api/v1/study/consent", json: #"{"decision": "accept"}"#)
            #expect(answer.status == 409)
            #expect((answer.json["error"] as? [String: Any])?["code"] as? String == "no_study")
        }
    }

    @Test("pending: name, description and text; accepted; accepting again is refused; withdrawn; a bad body is 400")
    func acceptThenWithdraw() async throws {
        try await APIHarness.with { api in
            try api.store.keepStudyAssignment(StudyFixture.syncedWithConsent, nowUnixNanoseconds: APIHarness.now)
            let pending = try #require(try await api.request("/api/v1/study/consent").json["study"] as? [String: Any])
            #expect(pending["protocol"] as? String == "sleep-2026")
            #expect(pending["version"] as? Int == 1)
            #expect(pending["description"] as? String == "Two sessions a day for three days; feedback is withheld in the last two blocks.")
            #expect(pending["consent_text"] as? String == StudyFixture.consentText)
            #expect(pending["consent"] as? String == "needed")
            #expect(pending["decision"] is NSNull)

            let bad = try await api.request(.POST, "/api/v1/study/consent", json: #"{"decision": "yes"}"#)
            #expect(bad.status == 400)
            #expect((bad.json["error"] as? [String: Any])?["message"] as? String == "\"decision\" must be \"accept\", \"decline\" or \"withdraw\"; got 'yes'.")
            let unknown = try await api.request(.POST, "/api/v1/study/consent", json: #"{"decision": "accept", "why": 1}"#)
            #expect(unknown.status == 400)

            let accepted = try await api.request(.POST, "/api/v1/study/consent", json: #"{"decision": "accept"}"#)
            #expect(accepted.status == 200)
            let study = try #require(accepted.json["study"] as? [String: Any])
            #expect(study["consent"] as? String == "accepted")
            let decision = try #require(study["decision"] as? [String: Any])
            #expect(decision["decision"] as? String == "accepted" && decision["version"] as? Int == 1)
            #expect(try api.store.studyConsent()?.decidedUnixNanoseconds == APIHarness.now)

            let again = try await api.request(.POST, "/api/v1/study/consent", json: #"{"decision": "decline"}"#)
            #expect(again.status == 409)
            #expect((again.json["error"] as? [String: Any])?["code"] as? String == "consent_not_open")
            #expect((again.json["error"] as? [String: Any])?["message"] as? String == "Consent was already answered (accepted); withdraw it in Settings to stop the study.")

            let withdrawn = try await api.request(.POST, "/api/v1/study/consent", json: #"{"decision": "withdraw"}"#)
            #expect((withdrawn.json["study"] as? [String: Any])?["consent"] as? String == "withdrawn")
            #expect(try api.store.studyConsentStanding() == .withdrawn)
        }
    }

    @Test("the write route's access rules: another site's page is refused, and nothing is kept")
    func foreignOriginRefused() async throws {
        try await APIHarness.with { api in
            try api.store.keepStudyAssignment(StudyFixture.syncedWithConsent, nowUnixNanoseconds: APIHarness.now)
            let answer = try await api.request(.POST, "/api/v1/study/consent", json: #"{"decision": "accept"}"#,
                                               headers: [("Origin", "https://elsewhere.example")])
            #expect(answer.status == 403)
            #expect(try api.store.studyConsent() == nil)
        }
    }
}
