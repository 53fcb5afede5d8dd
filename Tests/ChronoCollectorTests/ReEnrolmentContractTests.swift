import ChronoCollector
import ChronoCore
import ChronoSync
import Foundation
import HummingbirdTesting
import Testing

/// One row per physical device (issue 20, "a copied data directory cannot take over another device"),
/// on both stores: a code redeemed by a device ID that is enrolled is refused, the code stays unspent
/// and the enrolled device keeps its name, participant and key; a revoked device may come back.
@Suite("Collector store contract: re-enrolment")
struct ReEnrolmentContractTests {
    typealias F = CollectorFixtures

    static func code(_ store: any CollectorStore, name: String, participant: String? = nil) async throws -> String {
        let code = CollectorCredentials.newCode()
        try await store.addEnrolment(PendingEnrolment(codeSHA256: CollectorCredentials.codeDigest(code)!, name: name, participant: participant,
                                                      createdUnixNanoseconds: F.now, expiresUnixNanoseconds: F.now + 86_400_000_000_000),
                                     nowUnixNanoseconds: F.now)
        return code
    }

    static func redeem(_ store: any CollectorStore, _ code: String, device: String, key: String) async throws -> CollectorDevice {
        try await store.redeemEnrolment(codeSHA256: CollectorCredentials.codeDigest(code)!, request: F.request(code: code, device: device),
                                        keySHA256: CollectorCredentials.keyDigest(key), nowUnixNanoseconds: F.now + 10)
    }

    @Test(arguments: StoreKind.available)
    func anEnrolledDeviceIDCannotRedeemAnotherCode(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let key = try await F.enrol(store)
            _ = try await store.ingest(try IngestPlan.validate(F.batch([F.challenge()])), deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            let before = try await store.devices()
            // A copy of P001's data directory (same device ID) enrols with a code made for P002.
            let code = try await Self.code(store, name: "P002", participant: "P002")
            do {
                _ = try await Self.redeem(store, code, device: F.deviceID.uppercased(), key: CollectorCredentials.newDeviceKey())
                Issue.record("an enrolled device ID redeemed a second code")
            } catch let error as CollectorError {
                guard case .deviceEnrolled(let message) = error else { Issue.record("\(error)"); return }
                #expect(error.refusalCode == .deviceEnrolled)
                #expect(message.hasPrefix("Device ID \(F.deviceID) is already enrolled on this collector as 'P001', so this code was not used and 'P001' was left as it is."))
                #expect(message.contains("`chronoception sync add URL --code CODE --as-new-device`"))
                #expect(message.contains("`chronoception-collector revoke P001`"))
            }
            // Nothing moved: one row, its name, participant and key; its next batch is taken.
            #expect(try await store.devices() == before)
            let device = try #require(try await store.device(keySHA256: CollectorCredentials.keyDigest(key)))
            #expect(device.id == F.deviceID && device.name == "P001" && device.participant == "P001" && !device.isRevoked)
            let receipt = try await store.ingest(try IngestPlan.validate(F.batch([F.challenge()], after: 1)), deviceID: F.deviceID, nowUnixNanoseconds: F.now + 20)
            #expect(receipt.accepted == 1)
            // The code was not spent: the copy, given a new device ID, enrols with it as P002.
            let copy = try await Self.redeem(store, code, device: F.otherDeviceID, key: CollectorCredentials.newDeviceKey())
            #expect(copy.id == F.otherDeviceID && copy.name == "P002" && copy.sessionCount == 0)
            #expect(try await store.devices().map(\.name) == ["P001", "P002"])
        }
    }

    @Test(arguments: StoreKind.available)
    func aRevokedDeviceComesBackUnderItsNewCode(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let oldKey = try await F.enrol(store)
            _ = try await store.ingest(try IngestPlan.validate(F.batch([F.challenge()])), deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            _ = try await store.revokeDevice(named: "P001", nowUnixNanoseconds: F.now + 1)
            let code = try await Self.code(store, name: "P001-new")
            let newKey = CollectorCredentials.newDeviceKey()
            let device = try await Self.redeem(store, code, device: F.deviceID, key: newKey)
            #expect(device.id == F.deviceID && device.name == "P001-new" && !device.isRevoked && device.sessionCount == 1)
            #expect(try await store.devices().count == 1)
            #expect(try await store.device(keySHA256: CollectorCredentials.keyDigest(oldKey)) == nil)
        }
    }

    @Test(arguments: StoreKind.available)
    func theRouteAnswers409DeviceEnrolled(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await F.enrol(store)
            let code = try await SyncRouteTests.makeCode(store, name: "P002")
            try await SyncRouteTests.withClient(store) { client in
                let answer = try await SyncRouteTests.post(client, SyncProtocol.enrolPath, json: F.request(code: code))
                #expect(answer.status == .conflict && answer.errorCode == "device_enrolled")
                #expect(answer.text.contains("already enrolled on this collector as 'P001'"))
            }
        }
    }
}
