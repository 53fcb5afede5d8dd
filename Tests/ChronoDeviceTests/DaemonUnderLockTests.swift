import ChronoCore
import ChronoHardware
import ChronoRuntime
import ChronoStore
import ChronoTesting
import Foundation
import Synchronization
import Testing
@testable import ChronoDevice

/// The loop thread never waits for the database: with the store's write lock held by another process
/// for 6 s, the real daemon (store adapters, real loop, mock button and motor) starts sessions on idle
/// taps and fires every Passive boundary on time; the records are saved once the lock is released.
@Suite("The daemon while another process locks the database")
struct DaemonUnderLockTests {
    @Test("Idle taps start sessions and boundaries stay on time while the database is locked")
    func lockedDatabase() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        var flags = SessionFlags()
        flags.mode = .passive
        flags.interval = .testOnly(milliseconds: 500)
        flags.repetitions = 3
        flags.longPressMilliseconds = 400
        flags.debounceMilliseconds = 5
        flags.feedbackMilliseconds = 100
        let lines = RecordingLines()
        let library = StoreDeviceLibrary(store: scratch.store, flags: flags, board: try BoardCatalog.standard().load("desktop"),
                                         report: { lines.writeLine($0) })
        let finished = CollectedFinishes()
        let keeper = SnapshotKeeper(library: library)
        let controller = DeviceDaemonController(keeper: keeper, board: "desktop", pressHint: "press space",
                                                soundStatus: { .inaudible(reason: "none") })
        let button = try ScriptedButton()
        let motor = RecordingMotor()
        let loop = try SessionLoop(
            button: button, motor: motor, sound: nil, controller: controller,
            sinks: LoopSinks(console: lines, stateFile: nil,
                             recorder: RecorderFanOut([StoreSessionRecorder(store: scratch.store, report: { lines.writeLine($0) }), library, finished])),
            settings: SessionLoop.Settings(realtimePriority: nil, lockMemory: false, catchSignals: false))
        keeper.connect(loop.messenger)
        let ended = DispatchSemaphore(value: 0)
        let loopBox = UncheckedLoop(loop: loop)
        let thread = Thread {
            _ = try? loopBox.loop.run()
            ended.signal()
        }
        thread.start()
        #expect(lines.wait(forLineContaining: "Ready. Tap"))

        let locker = try DatabaseLocker(path: scratch.store.location.databasePath, seconds: 6)
        let lockedAt = HardwareClock.monotonicNanoseconds()
        for _ in 0..<2 {
            let press = HardwareClock.monotonicNanoseconds() + 20_000_000
            button.startReplay([ButtonEdge(.pressed, at: press), ButtonEdge(.released, at: press + 60_000_000)])
            // 3 boundaries of 500 ms, the session-done cue and the summary: under two seconds.
            Thread.sleep(forTimeInterval: 2)
        }
        let bothDoneAt = HardwareClock.monotonicNanoseconds()
        locker.waitUntilReleased()
        #expect(bothDoneAt - lockedAt < 5_500_000_000, "the two sessions should have run while the lock was held")
        #expect(finished.wait(count: 2, limit: 20))
        loop.stopper.stop(reason: "done")
        #expect(ended.wait(timeout: .now() + 20) == .success)

        let records = finished.all
        #expect(records.map(\.outcome.status) == [.completed, .completed])
        for record in records {
            #expect(record.outcome.boundaries.count == 3)
            #expect(record.boundariesFired.count == 3)
            // The session started on the tap, while the lock was held.
            #expect(record.outcome.startedAt.nanoseconds > lockedAt && record.outcome.endedAt.nanoseconds < lockedAt + 5_500_000_000)
            for (due, fired) in zip(record.outcome.boundaries.map(\.due), record.boundariesFired) {
                #expect((fired - due).nanoseconds < 500_000_000, "boundary fired \((fired - due).nanoseconds / 1000) µs late")
            }
        }
        // Both sessions reached the store once the lock was gone.
        #expect(try scratch.store.sessionCount() == 2)
        #expect(!motor.isOn)
    }
}

/// Holds SQLite's write lock on a database from another process (`BEGIN EXCLUSIVE`) for some seconds.
final class DatabaseLocker {
    private let process = Process()

    init(path: String, seconds: Int) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
            c.execute('BEGIN EXCLUSIVE')
            print('locked', flush=True)
            time.sleep(float(sys.argv[2]))
            c.execute('COMMIT')
            """, path, String(seconds)]
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard line.hasPrefix("locked") else { throw LockerError.notLocked(line) }
    }

    func waitUntilReleased() { process.waitUntilExit() }

    enum LockerError: Error { case notLocked(String) }
}

private struct UncheckedLoop: @unchecked Sendable {
    let loop: SessionLoop
}
