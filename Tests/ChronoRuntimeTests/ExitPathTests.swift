import ChronoTesting
import ChronoCore
import ChronoHardware
import Foundation
import Testing
@testable import ChronoRuntime

/// The motor is off on every way out of the loop, and never on past the safe maximum.
@Suite("Motor safety and exit paths")
struct ExitPathTests {
    @Test("A stop request in the middle of a long vibration switches the motor off and interrupts the session")
    func stopMidVibration() throws {
        let controller = SingleSessionController(configuration: try QuickSession.configuration(.challenge, count: 1),
                                                 context: QuickSession.context(), sessionID: "X1")
        let harness = try LoopHarness(controller: controller)
        harness.start()
        try harness.waitForLine("press space to start.")
        harness.tap(holdMilliseconds: 600)  // a long press: the abort-confirm cue has a 600 ms buzz
        try harness.waitForLine("Discard this session?")
        #expect(harness.motor.commands.contains { $0.on })
        harness.loop.stopper.stop(reason: "test stop")
        let report = try harness.finish()
        #expect(report.ending == .stopped(reason: "test stop"))
        #expect(harness.recorder.finished.first?.outcome.status == .interrupted)
        #expect(harness.motor.endedOff)
    }

    @Test("A driver error ends the loop with the error, the motor off and the session interrupted")
    func thrownError() throws {
        let controller = SingleSessionController(configuration: try QuickSession.configuration(.challenge, count: 1),
                                                 context: QuickSession.context(), sessionID: "X2")
        let harness = try LoopHarness(controller: controller)
        harness.start()
        try harness.waitForLine("press space to start.")
        harness.button.failReadsFromNowOn(MockDriverError("button line lost"))
        harness.tap()
        #expect(throws: MockDriverError.self) { try harness.finish() }
        #expect(harness.recorder.finished.first?.outcome.status == .interrupted)
        #expect(harness.motor.endedOff)
    }

    @Test("A normal end leaves the motor off")
    func normalEnd() throws {
        let controller = SingleSessionController(configuration: try QuickSession.configuration(.passive, intervalMilliseconds: 200, count: 2),
                                                 context: QuickSession.context(), sessionID: "X3")
        let harness = try LoopHarness(controller: controller)
        harness.start()
        #expect(try harness.finish().ending == .finished)
        #expect(harness.motor.endedOff)
    }

    @Test("Whatever is asked, the motor is never on past the safe maximum")
    func safeMaximum() throws {
        // One pulse far longer than allowed: cut when planned.
        let single = try LoopHarness(controller: PulseController(pulses: [.init(offset: .zero, length: .seconds(5))]),
                                     safeMaximumOn: .milliseconds(150))
        single.start()
        _ = try single.finish()
        let span = try #require(single.motor.onSpans.first)
        #expect(try #require(span.end) - span.start < 2_500_000_000)  // nowhere near the 5 s asked for
        #expect(single.motor.onSpans.count == 1)
        #expect(single.motor.endedOff)

        // Touching pulses, each allowed, together too long: the gate cuts the run and keeps the motor off
        // until the run would have ended.
        let run = try LoopHarness(controller: PulseController(pulses: [.init(offset: .zero, length: .milliseconds(150)),
                                                                       .init(offset: .milliseconds(150), length: .milliseconds(150))]),
                                  safeMaximumOn: .milliseconds(200))
        run.start()
        let report = try run.finish()
        #expect(report.motorForcedStops == 1)
        #expect(run.motor.onSpans.count == 1)
        #expect(run.motor.endedOff)
    }
}

/// Asks for one vibration made of the given pulses, then finishes when it would have ended.
final class PulseController: LoopController {
    let pulses: [PlannedVibration.Pulse]
    private var end: MonotonicInstant?
    private var done = false

    init(pulses: [PlannedVibration.Pulse]) { self.pulses = pulses }

    func start(at now: MonotonicInstant) -> [LoopAction] {
        end = now + .milliseconds(400)
        return [.vibrate(PlannedVibration(label: "test", due: now, pulses: pulses))]
    }

    var nextDeadline: MonotonicInstant? { done ? nil : end }
    func handle(_ event: SessionEvent) -> [LoopAction] {
        if case .deadline = event { done = true }
        return []
    }
    func predictedVibrations() -> [PlannedVibration] { [] }
    func vibrationStarted(_ vibration: PlannedVibration, firedAt: MonotonicInstant) {}
    func stop(at now: MonotonicInstant, reason: String) -> [LoopAction] { done = true; return [] }
    var isFinished: Bool { done }
}
