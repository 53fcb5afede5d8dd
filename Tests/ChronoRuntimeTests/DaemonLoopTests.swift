import ChronoTesting
import ChronoCore
import ChronoHardware
import Testing
@testable import ChronoRuntime

@Suite("The device daemon through the real loop")
struct DaemonLoopTests {
    @Test("Idle tap starts the last configuration, the session runs, the daemon returns to idle; a stop ends it")
    func idleSessionIdle() throws {
        let configuration = try QuickSession.configuration(.challenge, count: 1)
        let library = InMemoryDeviceLibrary(startingConfiguration: configuration, healthStatus: "on")
        let controller = DeviceDaemonController(library: library, board: "test", pressHint: "press space",
                                                fearAllowed: false, soundStatus: { .inaudible(reason: "none") })
        let harness = try LoopHarness(controller: controller)
        harness.start()
        try harness.waitForLine("Ready. Tap")
        harness.tap()
        try harness.waitForLine("Attempt 1 of 1: press space to start.")
        harness.tap()
        try harness.waitForLine("Attempt 1 of 1: started.")
        harness.tap(afterMilliseconds: 300)
        try harness.waitForLine("Idle. Tap to start challenge")
        // Long press in idle: the first preset is offered with its pattern.
        harness.tap(holdMilliseconds: 500)
        try harness.waitForLine("Preset ")
        harness.loop.stopper.stop(reason: "shutdown")
        let report = try harness.finish()
        #expect(report.ending == .stopped(reason: "shutdown"))
        #expect(harness.recorder.finished.map(\.outcome.status) == [.completed])
        #expect(harness.motor.endedOff)
    }

    @Test("A stop during a session interrupts it")
    func stopDuringSession() throws {
        let configuration = try QuickSession.configuration(.passive, intervalMilliseconds: 300, count: 50)
        let library = InMemoryDeviceLibrary(startingConfiguration: configuration, healthStatus: "on")
        let controller = DeviceDaemonController(library: library, board: "test", pressHint: "press space",
                                                fearAllowed: false, soundStatus: { .inaudible(reason: "none") })
        let harness = try LoopHarness(controller: controller)
        harness.start()
        try harness.waitForLine("Ready. Tap")
        harness.tap()
        try harness.waitForLine("Boundary 1 of 50.")
        harness.loop.stopper.stop(reason: "shutdown")
        _ = try harness.finish()
        #expect(harness.recorder.finished.map(\.outcome.status) == [.interrupted])
        #expect(harness.motor.endedOff)
    }
}
