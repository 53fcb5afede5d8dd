import ChronoTesting
import ChronoCore
import ChronoHardware
import Foundation
import Synchronization
import Testing
@testable import ChronoRuntime

/// A store that another process keeps locked (an import, a sync) holds back only the records: what a
/// person watches — console lines, the state file, live events — goes on, and the records arrive in
/// order once the store is free. On virtual time the records worker is held (its jobs queue, as behind
/// a locked database) while the display worker runs.
@Suite("A busy store does not hold back the display")
struct BusyStoreLoopTests {
    /// The recorder calls, in order.
    final class CallLog: SessionRecorder, Sendable {
        let calls = Mutex<[String]>([])

        func sessionStarted(_ start: SessionStartRecord) { calls.withLock { $0.append("started \(start.sessionID)") } }
        func sessionFinished(_ finish: SessionFinishRecord) {
            calls.withLock { $0.append("finished \(finish.sessionID) \(finish.outcome.status)") }
        }
    }

    @Test("Boundaries, state and events go on while the records worker is stuck; records then follow in order")
    func displayGoesOnWhileRecordsWait() throws {
        let configuration = try QuickSession.configuration(.passive, intervalMilliseconds: 250, count: 4)
        let controller = SingleSessionController(configuration: configuration, context: QuickSession.context(), sessionID: "S1")
        let log = CallLog()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("busy-store-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stateFile = StateFile(path: folder.appendingPathComponent("state.json").path)
        let driver = VirtualLoopDriver()
        driver.hold(.records)
        let harness = try VirtualHarness(controller: controller, driver: driver, stateFile: stateFile, alsoRecord: [log])
        let states = Mutex<[String]>([])
        let subscription = harness.events.subscribe { event in
            if case .state(let state) = event { states.withLock { $0.append(state.state.rawValue) } }
        }
        defer { subscription.cancel() }
        // After the last boundary (1000 ms), which ended the session: the display went on while the
        // start record was stuck.
        harness.at(VirtualHarness.ms(1_001)) {
            #expect(harness.lines.all.suffix(2) == ["Boundary 4 of 4.", "Session complete: 4 of 4 boundaries of 250ms, 1s in all."])
            #expect(log.calls.withLock { $0 }.isEmpty)
            #expect(states.withLock { $0 }.contains("PassiveRunning"))
            #expect(stateFile.read() != nil)
            driver.release(.records)
        }
        #expect(try harness.run().ending == .finished)
        #expect(log.calls.withLock { $0 } == ["started S1", "finished S1 completed"])
    }
}
