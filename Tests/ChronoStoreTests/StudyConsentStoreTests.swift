import ChronoCore
import ChronoSync
import ChronoTesting
@testable import ChronoStore
import Foundation
import Testing

/// The device store's consent decision (`study_consent`, migration `study-consent-v1`): taken as the
/// core's rule allows it, kept across a reopen, asked again when the assigned text changes.
@Suite("The device store keeps the consent decision")
struct StudyConsentStoreTests {
    static let decided: Int64 = 1_795_200_000_000_000_000

    /// The store's refusal message (nil: it did not refuse).
    static func refusal(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch let error as StoreError {
            if case .invalidValue(let message) = error { return message }
            return "\(error)"
        } catch { return "\(error)" }
    }

    @Test("no study: nothing to answer; a study with consent text: needed, accepted, kept across a reopen, withdrawn")
    func acceptKeepWithdraw() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let store = try ChronoStore.openForTest(directory)
            #expect(try store.appliedMigrations().contains("study-consent-v1"))
            #expect(try store.studyConsentStanding() == nil)
            #expect(Self.refusal { try store.decideStudyConsent(.accepted, nowUnixNanoseconds: Self.decided) }
                    == "No study is assigned to this device, so there is no consent to answer.")
            try store.keepStudyAssignment(StudyFixture.syncedWithConsent, nowUnixNanoseconds: StudyFixture.startUnixNanoseconds)
            #expect(try store.studyConsentStanding() == .needed)
            #expect(try store.studyConsent() == nil)
            let record = try store.decideStudyConsent(.accepted, nowUnixNanoseconds: Self.decided)
            #expect(record == StudyConsent.Record(decision: .accepted, decidedUnixNanoseconds: Self.decided, protocolName: "sleep-2026",
                                                  protocolVersion: 1, textDigest: StudyConsent.textDigest(StudyFixture.consentText)))
        }
        let reopened = try ChronoStore.openForTest(directory)
        #expect(try reopened.studyConsentStanding() == .accepted)
        #expect(Self.refusal { try reopened.decideStudyConsent(.declined, nowUnixNanoseconds: Self.decided + 1) }
                == "Consent was already answered (accepted); withdraw it in Settings to stop the study.")
        try reopened.decideStudyConsent(.withdrawn, nowUnixNanoseconds: Self.decided + 2)
        #expect(try reopened.studyConsent()?.decision == .withdrawn)
        #expect(try reopened.studyConsent()?.decidedUnixNanoseconds == Self.decided + 2)
        #expect(try reopened.studyConsentStanding() == .withdrawn)
    }

    @Test("a protocol without consent text needs none; a new version with a changed text asks again")
    func changedTextAsksAgain() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try store.keepStudyAssignment(StudyFixture.synced, nowUnixNanoseconds: StudyFixture.startUnixNanoseconds)
        #expect(try store.studyConsentStanding() == .notNeeded)
        try store.keepStudyAssignment(StudyFixture.syncedWithConsent, nowUnixNanoseconds: StudyFixture.startUnixNanoseconds)
        try store.decideStudyConsent(.declined, nowUnixNanoseconds: Self.decided)
        #expect(try store.studyConsentStanding() == .declined)
        // Version 2 with another consent text: the decline answered the old text.
        let text = StudyFixture.consentProtocolText.replacingOccurrences(of: "\"version\": 1", with: "\"version\": 2")
            .replacingOccurrences(of: StudyFixture.consentText, with: "I agree, and to the loud sound.")
        try store.keepStudyAssignment(SyncedStudyAssignment(protocolName: "sleep-2026", protocolVersion: 2, document: text, participant: "P017",
                                                            participantIndex: 0, startUnixNanoseconds: StudyFixture.startUnixNanoseconds, seed: 7),
                                      nowUnixNanoseconds: Self.decided + 1)
        #expect(try store.studyConsentStanding() == .needed)
        #expect(try store.decideStudyConsent(.accepted, nowUnixNanoseconds: Self.decided + 2).protocolVersion == 2)
        #expect(try store.studyConsentStanding() == .accepted)
    }
}
