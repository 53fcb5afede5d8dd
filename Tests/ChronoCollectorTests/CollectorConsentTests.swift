import ChronoCollector
import ChronoCore
import ChronoSync
import Foundation
import Testing

/// The device's consent decision reaches the collector in a batch (docs/STUDIES.md, "Consent"):
/// validated at ingest, kept on the device's row (both stores), listed and exported; a batch without
/// one (an older device) leaves the kept one as it was.
@Suite("Collector: the device's consent decision")
struct CollectorConsentTests {
    typealias F = CollectorFixtures
    static let digest = StudyConsent.textDigest("I agree to take part.")
    static let decided: Int64 = F.now - 3_600_000_000_000

    static func batch(_ consent: SyncedConsent?, after: Int64 = 0) -> SyncBatch {
        var batch = F.batch([], after: after)
        batch.consent = consent
        return batch
    }

    static func synced(_ decision: String, version: Int = 1, digest: String = digest, decided: Int64 = decided) -> SyncedConsent {
        SyncedConsent(decision: decision, decidedUnixNanoseconds: decided, protocolName: "sleep-2026", protocolVersion: version, textSHA256: digest)
    }

    @Test(arguments: StoreKind.available)
    func keptListedAndReplaced(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await F.enrol(store)
            #expect(try await store.devices().map(\.consent) == [nil])
            _ = try await store.ingest(try IngestPlan.validate(Self.batch(Self.synced("accepted"))), deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            let accepted = StudyConsent.Record(decision: .accepted, decidedUnixNanoseconds: Self.decided, protocolName: "sleep-2026",
                                               protocolVersion: 1, textDigest: Self.digest)
            #expect(try await store.devices().map(\.consent) == [accepted])
            // A batch without the member (an older device, or before any decision) keeps it.
            _ = try await store.ingest(try IngestPlan.validate(Self.batch(nil)), deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            #expect(try await store.devices().map(\.consent) == [accepted])
            _ = try await store.ingest(try IngestPlan.validate(Self.batch(Self.synced("withdrawn", decided: Self.decided + 5))),
                                       deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            #expect(try await store.devices().first?.consent?.decision == .withdrawn)
            #expect(try await store.devices().first?.consent?.decidedUnixNanoseconds == Self.decided + 5)
        }
    }

    @Test func aBadDecisionRefusesTheBatchNamingTheField() {
        func refusal(_ consent: SyncedConsent) -> String? {
            do { _ = try IngestPlan.validate(Self.batch(consent)); return nil } catch { return error.description }
        }
        #expect(refusal(Self.synced("maybe"))?.contains("consent.decision 'maybe' is not accepted, declined or withdrawn.") == true)
        #expect(refusal(Self.synced("accepted", version: 0))?.contains("consent.protocol_version 0 is outside") == true)
        #expect(refusal(Self.synced("accepted", digest: "ABC"))?.contains("consent.text_sha256 is not 64 lowercase hexadecimal digits.") == true)
        #expect(refusal(Self.synced("accepted", decided: -1))?.contains("consent.decided_unix_ns -1 is outside the years 1970–2099.") == true)
        #expect(refusal(Self.synced("accepted")) == nil)
    }

    @Test func anOlderDevicesBatchHasNoConsentAndAnOlderCollectorIgnoresIt() throws {
        // An older device: no member. The batch decodes with consent nil.
        let old = #"{"protocol":\#(SyncProtocol.version),"device_id":"\#(F.deviceID)","cursor_after":0,"cursor_through":0,"sessions":[],"preferences":[]}"#
        #expect(try JSONDecoder().decode(SyncBatch.self, from: Data(old.utf8)).consent == nil)
        // A new device's batch carries it under `consent`, which a decoder without the member skips.
        let encoded = String(decoding: try JSONEncoder().encode(Self.batch(Self.synced("declined"))), as: UTF8.self)
        #expect(encoded.contains(#""consent":{"#) && encoded.contains(#""decision":"declined""#) && encoded.contains(#""text_sha256":"\#(Self.digest)""#))
    }

    @Test func theTidyExportCarriesTheDevicesDecision() throws {
        let record = StudyConsent.Record(decision: .declined, decidedUnixNanoseconds: 1_795_132_800_000_000_000, protocolName: "sleep-2026",
                                         protocolVersion: 2, textDigest: Self.digest)
        let stored = CollectorSession(deviceID: F.deviceID, deviceName: "pi-7", participant: "P07", session: F.challenge(errorsMilliseconds: [500]),
                                      receivedUnixNanoseconds: F.now)
        let names = TidyCodebook.columns.map(\.name)
        let row = Dictionary(uniqueKeysWithValues: zip(names, try #require(TidyExport.rows(stored, consent: record).first)))
        #expect(row["consent"] == "declined" && row["consent_protocol"] == "sleep-2026@2" && row["consent_decided_utc"] == "2026-11-20T00:00:00.000+00:00")
        let none = Dictionary(uniqueKeysWithValues: zip(names, try #require(TidyExport.rows(stored).first)))
        #expect(none["consent"] == "" && none["consent_protocol"] == "" && none["consent_decided_utc"] == "")
    }
}

extension CollectorConsentTests {
    @Test func protocolStatusSaysWhenAParticipantStoppedTheStudy() {
        let assignment = StudyAssignmentRecord(participant: "P017", protocolName: "sleep-2026", protocolVersion: 1, participantIndex: 0, seed: 7,
                                               startUnixNanoseconds: F.now, assignedUnixNanoseconds: F.now, unassignedUnixNanoseconds: nil)
        let rows = [StudyStatusRow(assignment: assignment, status: nil, total: 28)]
        func record(_ decision: StudyConsent.Decision, _ at: Int64, name: String = "sleep-2026") -> StudyConsent.Record {
            StudyConsent.Record(decision: decision, decidedUnixNanoseconds: at, protocolName: name, protocolVersion: 1, textDigest: Self.digest)
        }
        let lines = CollectorStudyText.status(rows, nowUnixNanoseconds: F.now,
                                              consents: ["P017": [record(.accepted, 1), record(.withdrawn, 2), record(.accepted, 3, name: "other")]])
        #expect(lines == [
            "Participant  Protocol      Day  Done  Due  Missed  Upcoming  Consent                   Next due",
            "P017         sleep-2026@1  ?    ?     ?    ?       ?         withdrawn, study stopped  the protocol cannot be read",
        ])
        #expect(CollectorStudyText.status(rows, nowUnixNanoseconds: F.now)[1].contains("  —  "))
    }
}
