import ChronoCore
import ChronoHardware
import Synchronization
import Testing
@testable import ChronoRuntime

/// The armed switch-on: a pulse that starts exactly at the loop's wake-up is switched on before the
/// turn's bookkeeping, and the gate then reaches the same state and reports the same vibration as it
/// would have without it; where anything else could decide (a stall past the pulse, a lock-out, a
/// late vibration ahead), nothing is armed and `apply` decides alone.
@Suite("Motor gate: the armed switch-on")
struct MotorGateArmedTests {
    static let t0 = MonotonicInstant(nanoseconds: 10_000_000_000)

    /// A clock the test moves, in nanoseconds.
    final class Clock: Sendable {
        let value = Mutex<Int64>(10_000_000_000)
        var now: MonotonicInstant { MonotonicInstant(nanoseconds: value.withLock { $0 }) }
        func set(_ instant: MonotonicInstant) { value.withLock { $0 = instant.nanoseconds } }
    }

    static func gate(_ clock: Clock) -> (MotorGate, RecordingMotor) {
        let motor = RecordingMotor(now: { clock.now.nanoseconds })
        let gate = MotorGate(motor: motor, plan: MotorPlan(onsetLatency: .zero, safeMaximumOn: .milliseconds(1000)),
                             clock: { clock.now })
        return (gate, motor)
    }

    @Test("woken 40 µs after a pulse's start: on at once, then apply changes nothing and reports it begun then")
    func armedPulse() throws {
        let clock = Clock()
        let (gate, motor) = Self.gate(clock)
        let due = Self.t0 + .milliseconds(5)
        gate.add(PlannedVibration(label: "bench", due: due, pulses: [.init(offset: .zero, length: .milliseconds(1))]), now: Self.t0)
        let wake = try #require(gate.nextWake(after: Self.t0))
        #expect(wake == due)
        gate.arm(wake: wake)
        let woke = due + .nanoseconds(40_000)
        clock.set(woke)
        try gate.switchOnIfArmed(now: woke)
        #expect(motor.commands.map(\.on) == [true])
        #expect(motor.commands.map(\.atMonotonicNanoseconds) == [woke.nanoseconds])
        clock.set(woke + .nanoseconds(30_000))  // the bookkeeping's own time
        let fired = try gate.apply(now: woke)
        #expect(motor.commands.count == 1)
        #expect(fired.map(\.began) == [woke])
        #expect(gate.isOn)
        // The pulse ends on time, through the ordinary path.
        let end = try #require(gate.nextWake(after: woke))
        clock.set(end)
        _ = try gate.apply(now: end)
        #expect(motor.commands.map(\.on) == [true, false])
    }

    @Test("woken after the whole pulse (a stall): nothing is switched early; apply starts it late, whole")
    func stalled() throws {
        let clock = Clock()
        let (gate, motor) = Self.gate(clock)
        let due = Self.t0 + .milliseconds(5)
        gate.add(PlannedVibration(label: "bench", due: due, pulses: [.init(offset: .zero, length: .milliseconds(1))]), now: Self.t0)
        gate.arm(wake: due)
        let woke = due + .milliseconds(50)
        clock.set(woke)
        try gate.switchOnIfArmed(now: woke)
        #expect(motor.commands.isEmpty)
        let fired = try gate.apply(now: woke)
        #expect(motor.commands.map(\.on) == [true])
        #expect(fired.map(\.began) == [woke])
        #expect(gate.nextWake(after: woke) == woke + .milliseconds(1))
    }

    @Test("a wake-up that is not a pulse's start arms nothing; one before the armed instant switches nothing")
    func notArmed() throws {
        let clock = Clock()
        let (gate, motor) = Self.gate(clock)
        let due = Self.t0 + .milliseconds(5)
        gate.add(PlannedVibration(label: "bench", due: due, pulses: [.init(offset: .zero, length: .milliseconds(1))]), now: Self.t0)
        gate.arm(wake: Self.t0 + .milliseconds(3))   // a deadline of the controller's, no pulse starts then
        try gate.switchOnIfArmed(now: due + .nanoseconds(10_000))
        #expect(motor.commands.isEmpty)
        gate.arm(wake: due)
        try gate.switchOnIfArmed(now: Self.t0 + .milliseconds(1))   // the button woke the loop first
        #expect(motor.commands.isEmpty)
        gate.arm(wake: nil)
        try gate.switchOnIfArmed(now: due)
        #expect(motor.commands.isEmpty)
    }
}
