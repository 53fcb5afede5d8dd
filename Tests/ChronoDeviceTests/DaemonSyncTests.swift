import ChronoCore
import ChronoHardware
import ChronoRuntime
import ChronoStore
import ChronoTesting
import Foundation
import Testing
@testable import ChronoDevice

/// The daemon's wiring: the real loop (on virtual time) and store recorder with the sync pusher on its own thread. A
/// completed session reaches the collector without anyone calling `sync now`, and the collector's
/// preference lands in the settings.
@Suite("The daemon pushes completed sessions in the background")
struct DaemonSyncTests {
    @Test("a completed session is pushed after it is saved; the collector's preference is applied")
    func pushesAfterASession() async throws {
        let fixture = try ScratchStore()
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
        // The loop on virtual time (its records worker runs on this thread): an idle tap starts the
        // session, two 300 ms boundaries end it, the record is saved and the pusher nudged; only the
        // pusher's exchange runs in real time.
        // It starts at the real clock's reading, so the session's wall-clock date (the controller pairs
        // the real clocks once) is today's.
        let start = MonotonicClock.now()
        let driver = VirtualLoopDriver(start: start)
        let button = try ScriptedButton()
        let loop = try SessionLoop(
            button: button, motor: RecordingMotor(now: { [driver] in driver.now().nanoseconds }), sound: nil, controller: controller,
            sinks: LoopSinks(console: lines, stateFile: nil,
                             recorder: RecorderFanOut([StoreSessionRecorder(store: fixture.store, report: { lines.writeLine($0) }), library,
                                                       SyncNudgingRecorder(pusher: pusher)])),
            settings: SessionLoop.Settings(realtimePriority: nil, lockMemory: false, catchSignals: false),
            driver: driver)
        keeper.connect(loop.messenger)
        let tap = start + .milliseconds(500)
        driver.at(tap) { button.injectTap(atMonotonicNanoseconds: tap.nanoseconds, holdNanoseconds: 60_000_000) }
        driver.at(start + .seconds(3)) { loop.stopper.stop(reason: "done") }
        #expect(try loop.run().ending == .stopped(reason: "done"))
        #expect(lines.all.contains { $0.hasPrefix("Session complete: 2 of 2 boundaries") })
        // The pusher reports the batch.
        #expect(await eventually { lines.all.contains("sent 1 session (1 new, 0 already there); 0 pending") })
        #expect(collector.with { $0.sessions.values.map(\.mode) } == ["passive"])
        #expect(try fixture.store.syncState().pending == 0)
    }
}
