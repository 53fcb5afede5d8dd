import ChronoTesting
import ChronoCore
import ChronoHardware
import Testing
@testable import ChronoRuntime

/// A stall inside the loop, on virtual time: the motor driver holds the loop thread for 1.5 s on the
/// first "on" at or after an instant the test arms (as a stopped process or a starved CPU would), which
/// the virtual driver models by moving its clock while the driver call lasts.
@Suite("A stalled cue is recorded as it really began")
struct StalledCueLoopTests {
    static func ms(_ value: Int64) -> MonotonicInstant { VirtualHarness.ms(value) }

    @Test("Auto-start after a 1.5 s stall: attempt 2 counts from its start cue as it began, not from the feedback's end; flagged")
    func autoStartAfterStall() throws {
        var configuration = try QuickSession.configuration(.challenge, intervalMilliseconds: 300, count: 2, feedbackMilliseconds: 1500)
        configuration.timing.autoStartNextAttempt = true
        let controller = SingleSessionController(configuration: configuration, context: QuickSession.context(), sessionID: "S1")
        let driver = VirtualLoopDriver()
        // The tap is recognised at its release (1360 ms); feedback lasts 1.5 s (its cue is shorter), so
        // attempt 2's start cue is due at 2860 ms: its "on" stalls the loop until 4360 ms.
        let feedbackEnds = Self.ms(2_860)
        let motor = StallingMotor(driver: driver, stallOnFirstOnAfter: feedbackEnds - .milliseconds(20), for: .milliseconds(1_500))
        let harness = try VirtualHarness(controller: controller, driver: driver, motor: motor)
        harness.tap(at: Self.ms(1_000))
        harness.tap(at: Self.ms(1_300))
        harness.tap(at: Self.ms(5_000))
        #expect(try harness.run().ending == .finished)

        let outcome = try #require(harness.recorder.finished.first?.outcome)
        #expect(outcome.status == .completed)
        // The mark is when the cue began: the clock read right after the stalled driver call returned.
        #expect(motor.stallEndedAt == Self.ms(4_360))
        #expect(outcome.attempts.last?.startMark == Self.ms(4_360))
        #expect(outcome.attempts.last?.tapMark == Self.ms(5_000))
        #expect(outcome.timingLateness == .milliseconds(1_500))
        #expect(harness.lines.all.contains { $0.hasPrefix("Timing: a mark ") })
        #expect(motor.recording.isOn == false)
    }
}

/// Passes commands to a `RecordingMotor` on the driver's clock; the first "on" at or after an instant
/// holds the loop thread for a while before the line is driven — on virtual time, the clock moves.
final class StallingMotor: MotorOutput, @unchecked Sendable {
    let recording: RecordingMotor
    private let driver: VirtualLoopDriver
    private var stall: (after: MonotonicInstant, length: TimeSpan)?
    private(set) var stallEndedAt: MonotonicInstant?

    init(driver: VirtualLoopDriver, stallOnFirstOnAfter instant: MonotonicInstant, for length: TimeSpan) {
        self.driver = driver
        recording = RecordingMotor(now: { [driver] in driver.now().nanoseconds })
        stall = (instant, length)
    }

    func set(on: Bool) throws {
        if on, let planned = stall, driver.now() >= planned.after {
            stall = nil
            driver.advance(by: planned.length)
            stallEndedAt = driver.now()
        }
        try recording.set(on: on)
    }

    func close() { recording.close() }
}
