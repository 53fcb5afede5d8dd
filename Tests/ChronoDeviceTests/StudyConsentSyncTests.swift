import ChronoCore
import ChronoStore
import ChronoSync
import ChronoTesting
import Foundation
import Testing
@testable import ChronoDevice

/// The consent decision goes to the collector in the sync exchange's batch (docs/STUDIES.md,
/// "Consent"): none before a decision, then the newest one in every batch, a withdrawal after an
/// acceptance included.
@Suite("Sync: the consent decision reaches the collector")
struct StudyConsentSyncTests {
    @Test("no decision: no member; accepted, then withdrawn: the collector holds the newest")
    func decisionTravels() async throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        let collector = FakeCollector()
        let enrolment = try await fixture.enrol(collector)
        collector.with { $0.study = StudyFixture.syncedWithConsent }
        _ = try await fixture.exchange(collector).pushAll(enrolment: enrolment)
        #expect(collector.with { $0.consent } == nil)
        let decided: Int64 = 1_795_200_000_000_000_000
        try fixture.store.decideStudyConsent(.accepted, nowUnixNanoseconds: decided)
        _ = try await fixture.exchange(collector).pushAll(enrolment: enrolment)
        let digest = StudyConsent.textDigest(StudyFixture.consentText)
        #expect(collector.with { $0.consent } == SyncedConsent(decision: "accepted", decidedUnixNanoseconds: decided, protocolName: "sleep-2026",
                                                               protocolVersion: 1, textSHA256: digest))
        try fixture.store.decideStudyConsent(.withdrawn, nowUnixNanoseconds: decided + 60_000_000_000)
        _ = try await fixture.exchange(collector).pushAll(enrolment: enrolment)
        #expect(collector.with { $0.consent }?.decision == "withdrawn")
        let kept = collector.with { $0.consent }
        #expect(try kept?.validated().decidedUnixNanoseconds == decided + 60_000_000_000)
    }
}
