import ChronoCore
import ChronoHardware
import ChronoRuntime
import ChronoStore
import ChronoTesting
import Foundation
import Testing
@testable import ChronoCLI
@testable import ChronoDevice

/// The daemon's wiring: the real loop and store recorder with the sync pusher on its own thread. A
/// completed session reaches the collector without anyone calling `sync now`, and the collector's
/// preference lands in the settings.
@Suite("The daemon pushes completed sessions in the background")
struct DaemonSyncTests {
    @Test("a completed session is pushed after it is saved; the collector's preference is applied")
    func pushesAfterASession() async throws {
        let fixture = try SyncFixture()
        defer { fixture.remove() }
        let collector = FakeCollector()
        _ = try await fixture.enrol(collector)
        collector.setPreference("default-attempts", "8")
        var flags = SessionFlags()
        flags.mode = .passive
        flags.interval = .testOnly(milliseconds: 300)
        flags.repetitions = 2
        flags.longPressMilliseconds = 400
        flags.debounceMilliseconds = 5
        flags.feedbackMilliseconds = 100
        let lines = RecordingLines()
        let library = StoreDeviceLibrary(store: fixture.store, flags: flags, board: try BoardCatalog.standard().load("desktop"),
                                         report: { lines.writeLine($0) })
        let pusher = SyncPusher(store: fixture.store, report: { lines.writeLine($0) },
                                transport: { _ in InProcessTransport(collector: collector) })
        pusher.start()
        defer { pusher.stop() }
        // The push at start: nothing pending yet, the preference arrives.
        #expect(await eventually { lines.all.contains { $0.contains("preferences from the collector: default-attempts = 8") } })
        #expect(try fixture.store.settings().session.defaultAttempts == 8)

        let keeper = SnapshotKeeper(library: library)
        let controller = DeviceDaemonController(keeper: keeper, board: "desktop", pressHint: "press space",
                                                soundStatus: { .inaudible(reason: "none") })
        let button = try ScriptedButton()
        let loop = try SessionLoop(
            button: button, motor: RecordingMotor(), sound: nil, controller: controller,
            sinks: LoopSinks(console: lines, stateFile: nil,
                             recorder: RecorderFanOut([StoreSessionRecorder(store: fixture.store, report: { lines.writeLine($0) }), library,
                                                       SyncNudgingRecorder(pusher: pusher)])),
            settings: SessionLoop.Settings(realtimePriority: nil, lockMemory: false, catchSignals: false))
        keeper.connect(loop.messenger)
        let ended = EndFlag()
        let loopBox = LoopBox(loop: loop)
        let thread = Thread {
            _ = try? loopBox.loop.run()
            ended.set()
        }
        thread.start()
        #expect(await eventually { lines.all.contains { $0.contains("Ready. Tap") } })
        let press = HardwareClock.monotonicNanoseconds() + 20_000_000
        button.startReplay([ButtonEdge(.pressed, at: press), ButtonEdge(.released, at: press + 60_000_000)])
        // Two 300 ms boundaries, then the save and the nudge: the pusher reports the batch.
        #expect(await eventually { lines.all.contains("sent 1 session (1 new, 0 already there); 0 pending") })
        loop.stopper.stop(reason: "done")
        #expect(await eventually { ended.isSet })
        #expect(collector.with { $0.sessions.values.map(\.mode) } == ["passive"])
        #expect(try fixture.store.syncState().pending == 0)
    }
}

/// Polls `condition` every 50 ms for up to `limit` seconds without blocking a thread of the pool the
/// pusher's exchange runs on.
func eventually(limit: Double = 20, _ condition: () -> Bool) async -> Bool {
    let deadline = Date(timeIntervalSinceNow: limit)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 50_000_000)
    }
    return condition()
}

private struct LoopBox: @unchecked Sendable {
    let loop: SessionLoop
}

private final class EndFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
