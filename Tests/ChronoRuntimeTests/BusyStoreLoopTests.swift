import ChronoCore
import ChronoHardware
import Dispatch
import Foundation
import Synchronization
import Testing
@testable import ChronoRuntime

/// A store that another process keeps locked (an import, a sync) holds back only the records: what a
/// person watches — console lines, the state file, live events — goes on, and the records arrive in
/// order once the store is free.
@Suite("A busy store does not hold back the display")
struct BusyStoreLoopTests {
    /// A recorder whose first call blocks until the test lets it go, as a write on a locked database does.
    final class BlockedRecorder: SessionRecorder, @unchecked Sendable {
        let release = DispatchSemaphore(value: 0)
        let lock = NSLock()
        var calls: [String] = []

        func sessionStarted(_ start: SessionStartRecord) {
            release.wait()
            lock.withLock { calls.append("started \(start.sessionID)") }
        }
        func sessionFinished(_ finish: SessionFinishRecord) {
            lock.withLock { calls.append("finished \(finish.sessionID) \(finish.outcome.status)") }
        }
    }

    @Test("Boundaries, state and events go on while the recorder is stuck; records then follow in order")
    func displayGoesOnWhileRecordsWait() throws {
        let configuration = try QuickSession.configuration(.passive, intervalMilliseconds: 250, count: 4)
        let controller = SingleSessionController(configuration: configuration, context: QuickSession.context(), sessionID: "S1")
        let blocked = BlockedRecorder()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("busy-store-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stateFile = StateFile(path: folder.appendingPathComponent("state.json").path)
        let harness = try LoopHarness(controller: controller, stateFile: stateFile, alsoRecord: [blocked])
        let states = Mutex<[String]>([])
        let subscription = harness.events.subscribe { event in
            if case .state(let state) = event { states.withLock { $0.append(state.state.rawValue) } }
        }
        defer { subscription.cancel() }
        harness.start()
        // The recorder is stuck on the session's start record; the display must not be.
        try harness.waitForLine("Boundary 4 of 4.")
        #expect(blocked.lock.withLock { blocked.calls }.isEmpty)
        // The live events and the state file showed the session while its start record was stuck.
        #expect(states.withLock { $0 }.contains("PassiveRunning"))
        #expect(stateFile.read() != nil)
        blocked.release.signal()
        #expect(try harness.finish().ending == .finished)
        #expect(blocked.lock.withLock { blocked.calls } == ["started S1", "finished S1 completed"])
    }
}
