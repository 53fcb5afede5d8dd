import ChronoTesting
import ChronoCore
import ChronoHardware
import Testing
@testable import ChronoRuntime

/// The integration layer on the product's driver (`KernelLoopDriver`), in real time on a thread of its
/// own: the button's pipe, the timerfd at absolute deadlines, the mailbox's eventfd and the worker
/// threads through a real `ppoll`. Everything else about the loop is tested on virtual time; the
/// signal, hang-up and stall paths of the whole program in the subprocess tests. (`InputLostTests`: a
/// descriptor's POLLHUP through the same `ppoll`.)
@Suite("The loop on the kernel's clock and wait")
struct KernelLoopTests {
    @Test("Idle tap starts the last configuration, the session runs, the daemon returns to idle; a stop ends it")
    func idleSessionIdle() throws {
        let daemon = DaemonParts(try QuickSession.configuration(.challenge, count: 1))
        let harness = try LoopHarness(controller: daemon.controller, alsoRecord: [daemon.library])
        daemon.keeper.connect(harness.loop.messenger)
        harness.start()
        try harness.waitForLine("Ready. Tap")
        harness.tap()
        try harness.waitForLine("Attempt 1 of 1: press space to start.")
        harness.tap()
        try harness.waitForLine("Attempt 1 of 1: started.")
        harness.tap(afterMilliseconds: 300)
        try harness.waitForLine("Idle. Tap to start challenge")
        // A request through the mailbox is answered on the records worker's thread.
        #expect(try harness.ask(.endPassive) == .refused(.nothingRunning))
        // Long press in idle: the first preset is offered with its pattern.
        harness.tap(holdMilliseconds: 500)
        try harness.waitForLine("Preset ")
        harness.loop.stopper.stop(reason: "shutdown")
        let report = try harness.finish()
        #expect(report.ending == .stopped(reason: "shutdown"))
        #expect(harness.recorder.finished.map(\.outcome.status) == [.completed])
        // The marks are the scripted edges' own timestamps, not the time the loop read them.
        let finish = try #require(harness.recorder.finished.first)
        let presses = harness.button.injectedEdges.filter { $0.direction == .pressed }.map(\.monotonicNanoseconds)
        #expect(finish.outcome.attempts.flatMap { [$0.startMark.nanoseconds, $0.tapMark.nanoseconds] } == Array(presses[1...2]))
        #expect(harness.motor.endedOff)
    }
}
