import ChronoTesting
import ChronoCore
import ChronoHardware
import Foundation
import Testing
@testable import ChronoRuntime

/// The motor is off on every way out of the loop, and never on past the safe maximum — on virtual time,
/// so each switch-off is checked at its exact instant.
@Suite("Motor safety and exit paths")
struct ExitPathTests {
    static func ms(_ value: Int64) -> MonotonicInstant { VirtualHarness.ms(value) }

    @Test("A stop request in the middle of a long vibration switches the motor off at once and interrupts the session")
    func stopMidVibration() throws {
        let controller = SingleSessionController(configuration: try QuickSession.configuration(.challenge, count: 1),
                                                 context: QuickSession.context(), sessionID: "X1")
        let harness = try VirtualHarness(controller: controller)
        // A long press (recognised at 1400 ms): the abort-confirm cue, a tick then a 600 ms buzz (1500 to 2100 ms).
        harness.tap(at: Self.ms(1_000), holdMilliseconds: 600)
        harness.at(Self.ms(1_800)) {
            #expect(harness.lines.all.last == "Discard this session? Hold again within 2s to discard; tap to go on.")
            #expect(harness.motor.isOn)
        }
        harness.stop(at: Self.ms(1_800), reason: "test stop")
        let report = try harness.run()
        #expect(report.ending == .stopped(reason: "test stop"))
        let finish = try #require(harness.recorder.finished.first)
        #expect(finish.outcome.status == .interrupted)
        #expect(finish.outcome.endedAt == Self.ms(1_800))
        // The buzz was cut at the stop's instant, not at its planned end.
        let last = try #require(harness.motor.onSpans.last)
        #expect(last.start == 1_500_000_000 && last.end == 1_800_000_000)
        #expect(harness.motor.endedOff)
    }

    @Test("A driver error ends the loop with the error, the motor off and the session interrupted")
    func thrownError() throws {
        let controller = SingleSessionController(configuration: try QuickSession.configuration(.challenge, count: 1),
                                                 context: QuickSession.context(), sessionID: "X2")
        let harness = try VirtualHarness(controller: controller)
        harness.at(Self.ms(500)) { harness.button.failReadsFromNowOn(MockDriverError("button line lost")) }
        harness.tap(at: Self.ms(1_000))
        #expect(throws: MockDriverError.self) { try harness.run() }
        let finish = try #require(harness.recorder.finished.first)
        #expect(finish.outcome.status == .interrupted)
        #expect(finish.outcome.endedAt == Self.ms(1_000))
        #expect(harness.motor.endedOff)
    }

    @Test("On virtual time a loop with nothing left to wait for fails at once instead of hanging, motor off, session interrupted")
    func virtualLoopWithNothingScheduled() throws {
        let rig = try VirtualDaemonRig(try QuickSession.configuration(.passive, intervalMilliseconds: 300, count: 2))
        let harness = rig.harness
        harness.tap(at: Self.ms(500))  // a session of two boundaries, then idle, and no stop scheduled
        #expect(throws: VirtualLoopError.self) { try harness.run() }
        #expect(harness.recorder.finished.map(\.outcome.status) == [.completed])
        #expect(harness.motor.endedOff)
    }

    @Test("A normal end leaves the motor off")
    func normalEnd() throws {
        let controller = SingleSessionController(configuration: try QuickSession.configuration(.passive, intervalMilliseconds: 200, count: 2),
                                                 context: QuickSession.context(), sessionID: "X3")
        let harness = try VirtualHarness(controller: controller)
        #expect(try harness.run().ending == .finished)
        #expect(harness.motor.endedOff)
    }

    @Test("Whatever is asked, the motor is never on past the safe maximum")
    func safeMaximum() throws {
        // One pulse far longer than allowed: cut exactly at the safe maximum.
        let single = try VirtualHarness(controller: PulseController(pulses: [.init(offset: .zero, length: .seconds(5))]),
                                        safeMaximumOn: .milliseconds(150))
        _ = try single.run()
        #expect(single.motor.onSpans.map(\.start) == [0])
        #expect(single.motor.onSpans.map(\.end) == [150_000_000])
        #expect(single.motor.endedOff)

        // Touching pulses, each allowed, together too long: the gate cuts the run at the safe maximum and
        // keeps the motor off until the run would have ended.
        let run = try VirtualHarness(controller: PulseController(pulses: [.init(offset: .zero, length: .milliseconds(150)),
                                                                          .init(offset: .milliseconds(150), length: .milliseconds(150))]),
                                     safeMaximumOn: .milliseconds(200))
        let report = try run.run()
        #expect(report.motorForcedStops == 1)
        #expect(run.motor.onSpans.map(\.start) == [0])
        #expect(run.motor.onSpans.map(\.end) == [200_000_000])
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
