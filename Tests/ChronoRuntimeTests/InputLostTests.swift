import ChronoCore
import ChronoHardware
import ChronoTesting
import Testing
@testable import ChronoRuntime

/// An input device unplugged mid-session (an evdev button's descriptor hangs up) ends the session as
/// interrupted through the loop's input-lost path; the commands then tell the user (or, `run`, wait).
/// In real time on the product's driver: the pipe's POLLHUP through a real `ppoll` is the point.
@Suite("Input lost")
struct InputLostTests {
    @Test("A button whose descriptor hangs up stops the loop with the reason and interrupts the session")
    func hangUpInterrupts() throws {
        let controller = SingleSessionController(configuration: try QuickSession.configuration(.challenge, count: 1),
                                                 context: QuickSession.context(), sessionID: "L1")
        let harness = try LoopHarness(controller: controller)
        harness.start()
        try harness.waitForLine("press space to start.")
        harness.tap()
        try harness.waitForLine("Attempt 1 of 1: started.")
        harness.button.hangUp()
        let report = try harness.finish()
        #expect(report.ending == .stopped(reason: "the button input closed"))
        #expect(harness.recorder.finished.first?.outcome.status == .interrupted)
        #expect(harness.motor.endedOff)
    }
}
