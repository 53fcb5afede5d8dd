import ChronoCommandLine
import ChronoCore
import ChronoStore
import ChronoSync
import ChronoTesting
import Foundation
import Testing
@testable import ChronoDevice

/// A collector's replies are from outside the device (issue 34, item 2): a receipt or grant past a
/// bound is one clear sync error (exit 79), never a trap; nothing of it reaches the store; and the
/// next push to a good collector goes through as if it had never come.
@Suite("Sync: hostile replies")
struct SyncHostileReplyTests {
    /// Everything of the store a reply could change, except the failure record `sync status` shows.
    static func snapshot(_ store: ChronoStore) throws -> String {
        let state = try store.syncState()
        return [
            "\(state.deviceID) \(String(describing: state.enrolment)) cursor \(state.cursor) pending \(state.pending)",
            "\(try store.syncPreferences())", "highest \(try store.syncHighestClock())", "\(try store.settings().values.map { "\($0.key.rawValue)=\($0.value)" }.sorted())",
            "\(String(describing: try store.studyAssignment()))",
        ].joined(separator: "\n")
    }

    static func receiptJSON(_ batch: SyncBatch, _ receipt: SyncReceipt, _ change: (inout [String: Any]) -> Void) -> Data {
        var object = (try? JSONSerialization.jsonObject(with: JSONEncoder().encode(receipt))) as? [String: Any] ?? [:]
        change(&object)
        return (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
    }

    static func preference(_ clock: Any, key: String = "default-attempts", value: String = "7") -> [String: Any] {
        ["key": key, "value": value, "clock": clock, "origin": "collector"]
    }

    /// Each hostile receipt, as a change of the receipt the collector would have sent.
    static let hostile: [(String, @Sendable (inout [String: Any]) -> Void)] = [
        ("accepted Int64.max", { $0["accepted"] = Int64.max }),
        ("accepted and duplicates Int64.max", { $0["accepted"] = Int64.max; $0["duplicates"] = Int64.max }),
        ("accepted -1", { $0["accepted"] = -1 }),
        ("duplicates one past the batch", { $0["duplicates"] = 4 }),
        ("a clock of 2^53", { $0["preferences"] = [preference(Int64(1) << 53)] }),
        ("a clock of 2^63-1", { $0["preferences"] = [preference(Int64.max)] }),
        ("a clock of -1", { $0["preferences"] = [preference(-1)] }),
        ("a value with CR/LF", { $0["preferences"] = [preference(3, value: "7\r\n")] }),
        ("a key twice", { $0["preferences"] = [preference(3), preference(4)] }),
        ("65 preferences", { $0["preferences"] = (0..<65).map { preference(1, key: "k\($0)") } }),
        ("acknowledged through Int64.max", { $0["acknowledged_through"] = Int64.max }),
        ("a refused session not in the batch", { $0["refused"] = [["session_id": "9B7C2F4E-3A51-4C7E-9D0A-5F1E2D3C4B5A", "rule": "r", "reason": "x"]] }),
    ]

    @Test("each hostile receipt: exit 79 naming the collector and the problem, the store unchanged, the next good push goes through")
    func hostileReceipts() async throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        let collector = FakeCollector()
        let enrolment = try await fixture.enrol(collector)
        try fixture.set(.defaultAttempts, "5")
        _ = try await fixture.exchange(collector).pushAll(enrolment: enrolment)
        try fixture.addSessions(3)
        for (name, change) in Self.hostile {
            let before = try Self.snapshot(fixture.store)
            collector.with { $0.receiptBody = { batch, receipt in Self.receiptJSON(batch, receipt, change) } }
            do {
                _ = try await fixture.exchange(collector).pushAll(enrolment: enrolment)
                Issue.record("\(name): accepted")
            } catch let failure as SyncFailure {
                #expect(failure.kind == .invalidReply, "\(name): \(failure)")
                #expect(failure.status == .collectorRefused)
                #expect(failure.description.hasPrefix("sync: the receipt from the collector at http://127.0.0.1:1 is refused: "), "\(name)")
                #expect(!failure.description.contains("\n") && !failure.description.contains("\r"))
            }
            #expect(try Self.snapshot(fixture.store) == before, "\(name): the store changed")
            #expect(try fixture.store.syncState().lastFailureCode == "invalid_reply")
        }
        // A good collector again: the three sessions go, and the highest clock is what it was.
        collector.with { $0.receiptBody = nil }
        let summary = try await fixture.exchange(collector).pushAll(enrolment: enrolment)
        // The stand-in stored them with the first hostile reply: the device learns it only now.
        #expect(summary.line == "sent 3 sessions (0 new, 3 already there); 0 pending")
        #expect(try fixture.store.syncHighestClock() < 10)
        #expect(try fixture.store.syncState().consecutiveFailures == 0)
    }

    @Test("the daemon's pusher meets a receipt of Int64.max accepted: one warning line and the backoff, no trap, nothing kept")
    func pusherBacksOff() async throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        let collector = FakeCollector()
        _ = try await fixture.enrol(collector)
        try fixture.addSessions(2)
        collector.with { $0.receiptBody = { batch, receipt in Self.receiptJSON(batch, receipt) { $0["accepted"] = Int64.max } } }
        let said = RecordingLines()
        let pusher = SyncPusher(store: fixture.store, report: { said.writeLine($0) }, transport: { _ in InProcessTransport(collector: collector) }, machine: nil)
        guard case .afterMilliseconds(let delay) = await pusher.step() else { Issue.record("not a backoff"); return }
        #expect(delay >= 5_000)
        _ = await pusher.step()
        #expect(said.all.count == 1 && said.all[0].hasPrefix("sync: the receipt from the collector at http://127.0.0.1:1 is refused: it counts 9223372036854775807 sessions accepted"))
        #expect(try fixture.store.syncState().pending == 2 && fixture.store.syncState().consecutiveFailures == 2)
    }

    @Test("hostile grants: refused (exit 79) and nothing enrolled, then a good grant enrols")
    func hostileGrants() async throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        let collector = FakeCollector()
        let grants: [(String, [String: Any])] = [
            ("a key with CR/LF", ["key": "ccd_AAAA\r\nX-Evil: 1"]),
            ("a key of 7 bytes", ["key": "ccd_AAA"]),
            ("a key of 513 bytes", ["key": String(repeating: "k", count: 513)]),
            ("a key with a space", ["key": "ccd_AAAA BBBB"]),
            ("a collector id that is not a UUID", ["collector_id": "x\ny"]),
            ("a device name with U+202E", ["device_name": "P\u{202E}710"]),
            ("an empty device name", ["device_name": ""]),
        ]
        for (name, change) in grants {
            var object: [String: Any] = ["protocol": 1, "collector_id": FakeCollector.collectorID, "device_name": "P017", "key": "ccd_" + String(repeating: "A", count: 43)]
            object.merge(change) { $1 }
            let body = try JSONSerialization.data(withJSONObject: object)
            collector.with { $0.grantBody = body }
            do {
                _ = try await fixture.enrol(collector)
                Issue.record("\(name): enrolled")
            } catch let failure as SyncFailure {
                #expect(failure.kind == .invalidReply && failure.status == .collectorRefused, "\(name): \(failure)")
                #expect(failure.description.hasPrefix("sync: the enrolment grant from the collector at http://127.0.0.1:1 is refused: "), "\(name)")
            }
            #expect(try fixture.store.syncEnrolment() == nil, "\(name)")
        }
        collector.with { $0.grantBody = nil }
        #expect(try await fixture.enrol(collector).collectorID == FakeCollector.collectorID)
    }

    @Test("the store's own apply takes no clock out of range, whoever calls it: the high-water mark stays, the value too")
    func storeIgnoresClocksOutOfRange() async throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        try fixture.set(.defaultAttempts, "5")
        // Past the validator, straight to the store: what an unchecked receipt used to leave there.
        _ = try fixture.store.recordSyncSuccess(acknowledgedThrough: 0, preferences: [
            StampedPreference(key: "default-attempts", value: "9", clock: .max, origin: .collector),
        ], nowUnixNanoseconds: 1_795_000_000_000_000_000)
        #expect(try fixture.store.syncHighestClock() < PreferenceMerge.maximumClock)
        #expect(try fixture.store.syncPreferences().allSatisfy { PreferenceMerge.acceptsClock($0.clock) })
        #expect(try fixture.store.settings()[.defaultAttempts] == "5")
        // Clock 0 is in range but older than any stamp: taken without error, applied to nothing.
        let interval = try fixture.store.settings()[.defaultInterval]
        let zero = try fixture.store.recordSyncSuccess(acknowledgedThrough: 0, preferences: [
            StampedPreference(key: "default-interval", value: "45s", clock: 0, origin: .collector),
        ], nowUnixNanoseconds: 1_795_000_000_000_000_000)
        #expect(zero.applied.isEmpty && zero.refused.isEmpty)
        #expect(try fixture.store.settings()[.defaultInterval] == interval)
    }

    @Test("the summary's sums saturate instead of trapping, and refused sessions are named escaped")
    func summaryArithmetic() {
        var summary = SyncExchange.Summary()
        summary.add(SyncReceipt(accepted: .max, duplicates: .max, acknowledgedThrough: 0, preferences: []))
        summary.add(SyncReceipt(accepted: 1, duplicates: 1, acknowledgedThrough: 0, preferences: [],
                                refused: [SyncRefusedSession(sessionID: "A", rule: "session_study_participant", reason: "P2\u{1B}[2J")]))
        #expect(summary.accepted == .max && summary.duplicates == .max && summary.sent == .max)
        #expect(summary.refusedLines == [#"the collector refused session A (session_study_participant): P2\u{1B}[2J"#])
    }

    @Test("a collector's error message is one escaped line of at most 300 characters")
    func errorMessagesBounded() {
        let failure = SyncFailure.classifying(httpStatus: 422, code: "invalid_batch", message: "bad\r\n" + String(repeating: "x", count: 5000), during: "a batch")
        #expect(!failure.description.contains("\n"))
        #expect(failure.detail.count < 400)
    }
}
