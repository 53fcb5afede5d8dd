import ChronoCore
import ChronoStore
import ChronoSync
import ChronoTesting
import Foundation
import Testing
@testable import ChronoDevice

/// `cp -a` of an enrolled device's data directory onto another machine (issue 20): the copy notices,
/// never pushes as the original, and `sync add` enrols it as a new device with a new ID, while the
/// original goes on pushing as before. Two machines are two bindings given to the exchange.
@Suite("Sync: a copied data directory")
struct SyncCopiedDataDirectoryTests {
    static let machineA = MachineBinding.binding(machineID: "11111111111111111111111111111111")
    static let machineB = MachineBinding.binding(machineID: "22222222222222222222222222222222")
    static let url = "http://127.0.0.1:1"

    static func exchange(_ store: ChronoStore, _ collector: FakeCollector, machine: String?) -> SyncExchange {
        SyncExchange(store: store, transport: InProcessTransport(collector: collector), now: { 1_795_000_000_000_000_000 }, machine: machine)
    }

    static func enrol(_ store: ChronoStore, _ collector: FakeCollector, machine: String?, code: String) async throws -> SyncEnrolment {
        _ = collector.with { $0.codes.insert(code) }
        return try await exchange(store, collector, machine: machine)
            .enrol(url: try CollectorURL(parsing: url), code: code, board: "desktop", softwareVersion: "0")
    }

    @Test("the copy refuses to push as the original, says so, and `sync add` makes it a new device")
    func copyOnAnotherMachine() async throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        try fixture.addSessions(3)
        let collector = FakeCollector()
        let enrolment = try await Self.enrol(fixture.store, collector, machine: Self.machineA, code: "A")
        let original = try fixture.store.syncDeviceID()
        _ = try await Self.exchange(fixture.store, collector, machine: Self.machineA).pushAll(enrolment: enrolment)

        // The copy, opened on machine B.
        var template = Array("/tmp/chrono-sync-copy-XXXXXX".utf8CString)
        let copyDirectory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) } + "/data"
        defer { try? FileManager.default.removeItem(atPath: (copyDirectory as NSString).deletingLastPathComponent) }
        try FileManager.default.copyItem(atPath: fixture.directory, toPath: copyDirectory)
        let copy = try ChronoStore.open(StoreLocation(directory: copyDirectory))
        #expect(try copy.syncDeviceID() == original)
        let copiedEnrolment = try #require(try copy.syncEnrolment())
        let batchesBefore = collector.with { $0.batchSizes.count }

        // `sync now`: refused before anything is sent, exit 77, the fix named.
        do {
            _ = try await Self.exchange(copy, collector, machine: Self.machineB).pushAll(enrolment: copiedEnrolment)
            Issue.record("the copy pushed as the original")
        } catch let failure as SyncFailure {
            #expect(failure.kind == .copiedDataDirectory && failure.status == .permission)
            #expect(failure.description.hasPrefix("sync: this data directory seems copied from another machine: its device ID \(original) is bound to the machine it enrolled on, so this machine does not push as that device; `chronoception sync add URL --code CODE`"))
            #expect(failure.description.contains("enrols this machine as a new device, with a new device ID"))
        }
        #expect(collector.with { $0.batchSizes.count } == batchesBefore)

        // `sync status` says it first, with the way out; --json carries it too.
        let lines = SyncStatusText.lines(try copy.syncState(), copied: try copy.syncMachineState(current: Self.machineB) == .copied)
        #expect(lines.first == "copied: this data directory seems copied from another machine, so this machine does not push as device \(original); `chronoception sync add URL --code CODE` enrols it as a new device (with a new device ID)")
        #expect(SyncStatusText.json(try copy.syncState(), copied: true).compactText.contains("\"copied_from_another_machine\":true"))

        // The daemon's pusher does not push either, says so once, and sleeps until a `sync add`.
        let said = RecordingLines()
        let pusher = SyncPusher(store: copy, report: { said.writeLine($0) }, transport: { _ in InProcessTransport(collector: collector) },
                                machine: Self.machineB)
        #expect(await pusher.step() == .whenNudged)
        #expect(await pusher.step() == .whenNudged)
        #expect(said.all.count == 1 && said.all[0].contains("seems copied from another machine"))
        #expect(collector.with { $0.batchSizes.count } == batchesBefore)

        // `sync add` on the copy: a new device ID, the original's key forgotten, everything sent again.
        let renewed = try #require(try Self.exchange(copy, collector, machine: Self.machineB).prepareEnrolment(asNewDevice: false))
        #expect(renewed != original)
        #expect(try copy.syncEnrolment() == nil)
        let second = try await Self.enrol(copy, collector, machine: Self.machineB, code: "B")
        #expect(second.deviceKey == "key-" + renewed)
        let summary = try await Self.exchange(copy, collector, machine: Self.machineB).pushAll(enrolment: second)
        #expect(summary.line == "sent 3 sessions (0 new, 3 already there); 0 pending")
        #expect(try copy.syncMachineState(current: Self.machineB) == .sameMachine)

        // The original is untouched: same ID, same key, still pushing.
        #expect(try fixture.store.syncDeviceID() == original)
        try fixture.addSessions(1)
        let again = try await Self.exchange(fixture.store, collector, machine: Self.machineA).pushAll(enrolment: enrolment)
        #expect(again.line == "sent 1 session (1 new, 0 already there); 0 pending")
    }

    @Test("a device on its own machine, and one enrolled before bindings existed, push as before")
    func sameMachineAndUnbound() async throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        try fixture.addSessions(2)
        let collector = FakeCollector()
        // Enrolled by an older version: no binding.
        _ = collector.with { $0.codes.insert("A") }
        let old = SyncExchange(store: fixture.store, transport: InProcessTransport(collector: collector), now: { 1 }, machine: nil)
        let enrolment = try await old.enrol(url: try CollectorURL(parsing: Self.url), code: "A", board: "desktop", softwareVersion: "0")
        #expect(try fixture.store.syncMachineState(current: Self.machineA) == .unbound)
        // Its first push on this machine binds it here.
        _ = try await Self.exchange(fixture.store, collector, machine: Self.machineA).pushAll(enrolment: enrolment)
        #expect(try fixture.store.syncMachineState(current: Self.machineA) == .sameMachine)
        #expect(try Self.exchange(fixture.store, collector, machine: Self.machineA).prepareEnrolment(asNewDevice: false) == nil)
        // A machine without a machine ID cannot tell, and is not refused.
        _ = try await Self.exchange(fixture.store, collector, machine: nil).pushAll(enrolment: enrolment)
    }

    @Test("the collector's device_enrolled answer is its own failure, naming --as-new-device")
    func deviceEnrolledAnswer() {
        let failure = SyncFailure.classifying(httpStatus: 409, code: "device_enrolled",
                                              message: "Device ID x is already enrolled on this collector as 'P001', so this code was not used. More.", during: "the enrolment")
        #expect(failure.kind == .deviceEnrolled && failure.status == .permission)
        #expect(failure.description == "sync: the collector refused the enrolment: Device ID x is already enrolled on this collector as 'P001', so this code was not used; if this data directory was copied from that device, enrol this machine as a new device: `chronoception sync add URL --code CODE --as-new-device`; if it is that device itself, revoke it on the collector first (`chronoception-collector revoke NAME`), then `sync add` again.")
    }

    /// A collector that refuses every batch with words of its choosing.
    struct HostileCollector: CollectorTransport {
        func post(_ path: String, body: Data, bearer: String?) async throws(SyncFailure) -> (status: Int, body: Data) {
            (422, Data(#"{"error": {"code": "invalid_batch", "message": "bad\u001b[2J\u001b]0;owned\u0007 batch. More."}}"#.utf8))
        }
    }

    @Test("the daemon's console shows a collector's words as text")
    func pusherLinesAreSanitised() async throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        try fixture.addSessions(1)
        _ = try await fixture.enrol(FakeCollector())
        let said = RecordingLines()
        let pusher = SyncPusher(store: fixture.store, report: { said.writeLine($0) }, transport: { _ in HostileCollector() }, machine: nil)
        _ = await pusher.step()
        #expect(said.all.count == 1)
        #expect(said.all[0].hasPrefix("sync: the collector refused the batch as invalid: bad\\u{1B}[2J\\u{1B}]0;owned\\u{7} batch;"))
        #expect(!said.all[0].contains("\u{1B}"))
    }
}
