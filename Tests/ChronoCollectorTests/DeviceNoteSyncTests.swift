import ChronoCollector
import ChronoCore
import ChronoStore
import ChronoSync
import Foundation
import Testing

/// A device's own store and outbox pushing to a real collector through its sync route: the note
/// travels, and an edit on the device replaces it on the collector with nothing else changed.
@Suite("Device to collector: a session's note")
struct DeviceNoteSyncTests {
    typealias F = CollectorFixtures

    @Test(arguments: StoreKind.available)
    func anEditOnTheDeviceReachesTheCollector(kind: StoreKind) async throws {
        var template = Array("/tmp/chrono-note-sync-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let device = try ChronoStore.open(StoreLocation(directory: directory))
        let interval = try TrainingInterval(seconds: 30)
        let configuration = try SessionConfiguration(mode: .challenge, interval: interval, plannedCount: 1)
        let anchor = WallClockAnchor(unixNanoseconds: F.now - 3_600_000_000_000, monotonic: MonotonicInstant(nanoseconds: 1_000_000_000), utcOffsetSeconds: 0)
        let start = anchor.monotonic
        let outcome = SessionOutcome(status: .completed, configuration: configuration, startedAt: start, endedAt: start + .seconds(33),
                                     attempts: [AttemptMeasurement(index: 1, target: interval, startMark: start + .seconds(1), tapMark: start + .seconds(33))],
                                     boundaries: [], fearSoundEffective: false, reason: nil)
        let id = UUID().uuidString
        try device.importFinishedSessions([SessionFinishRecord(sessionID: id, outcome: outcome, anchor: anchor, board: "desktop",
                                                               boundariesFired: [], wallClockSynchronised: true)], nowUnixNanoseconds: F.now)
        let deviceID = try device.syncDeviceID()
        try device.setNote(sessionID: id, note: "after coffee")

        try await kind.withStore { store in
            let key = try await F.enrol(store, device: deviceID)
            try await SyncRouteTests.withClient(store) { client in
                func push() async throws -> SyncReceipt {
                    let batch = try device.syncOutboxBatch()
                    let answer = try await SyncRouteTests.post(client, SyncProtocol.batchesPath, json: SyncBatch(
                        deviceID: deviceID, cursorAfter: batch.after, cursorThrough: batch.through, sessions: batch.sessions, preferences: []), key: key)
                    #expect(answer.status == .ok, "\(answer.text)")
                    let receipt = try JSONDecoder().decode(SyncReceipt.self, from: Data(answer.text.utf8))
                    try device.recordSyncSuccess(acknowledgedThrough: receipt.acknowledgedThrough, preferences: [], nowUnixNanoseconds: F.now)
                    return receipt
                }
                let first = try await push()
                #expect(first.accepted == 1 && first.duplicates == 0)
                let sent = try #require(try await store.sessions(CollectorSessionQuery()).first)
                #expect(sent.session.note == "after coffee")

                try device.setNote(sessionID: id, note: "after coffee, tired")
                let edit = try await push()
                #expect(edit.accepted == 0 && edit.duplicates == 1)
                let edited = try #require(try await store.sessions(CollectorSessionQuery()).first)
                var expected = sent.session
                expected.note = "after coffee, tired"
                #expect(edited.session == expected && edited.receivedUnixNanoseconds == sent.receivedUnixNanoseconds)
                #expect(try device.syncState().pending == 0)

                // The read API's session carries it.
                let secret = CollectorCredentials.newReaderKey()
                try await store.addReaderKey(ReaderKey(id: "r1", name: "analysis", createdUnixNanoseconds: F.now),
                                             keySHA256: CollectorCredentials.keyDigest(secret))
                let listed = try await SyncRouteTests.get(client, "/api/v1/sessions", key: secret)
                #expect((listed.json["sessions"] as? [[String: Any]])?.first?["note"] as? String == "after coffee, tired")

                var csv = ""
                CollectorCSV.write(try await store.sessions(CollectorSessionQuery()), to: { csv += $0 })
                #expect(csv.components(separatedBy: "\r\n")[1].hasSuffix(",\"after coffee, tired\",,,,,"))
            }
        }
    }
}
