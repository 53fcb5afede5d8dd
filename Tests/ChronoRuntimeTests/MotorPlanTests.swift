import ChronoCore
import Testing
@testable import ChronoRuntime

@Suite("Motor plan")
struct MotorPlanTests {
    let t0 = MonotonicInstant(nanoseconds: 10_000_000_000)
    let short = HapticPattern([.short])

    @Test("A vibration due later is commanded early by the onset latency, pulses unchanged")
    func onsetLatency() {
        var plan = MotorPlan(onsetLatency: .milliseconds(25), safeMaximumOn: .milliseconds(1000))
        plan.add(PlannedVibration(pattern: short, label: "interval", due: t0 + .milliseconds(500)), now: t0)
        #expect(plan.stretches.map(\.start) == [t0 + .milliseconds(475)])
        #expect(plan.stretches.map { $0.end - $0.start } == [.milliseconds(80)])
    }

    @Test("A vibration due now starts now, whole: nothing is clipped to make up the latency")
    func dueNow() {
        var plan = MotorPlan(onsetLatency: .milliseconds(25), safeMaximumOn: .milliseconds(1000))
        plan.add(PlannedVibration(pattern: HapticPattern([.tick, .tick]), label: "start", due: t0), now: t0)
        #expect(plan.stretches.map(\.start) == [t0, t0 + .milliseconds(100)])
        #expect(plan.stretches.map { $0.end - $0.start } == [.milliseconds(40), .milliseconds(40)])
    }

    @Test("A predicted vibration is confirmed, not planned twice; an unconfirmed one that has not started is dropped")
    func prediction() {
        var plan = MotorPlan(onsetLatency: .zero, safeMaximumOn: .milliseconds(1000))
        let boundary = PlannedVibration(pattern: short, label: "interval", due: t0 + .milliseconds(300))
        plan.predict([boundary], now: t0)
        plan.add(boundary, now: t0 + .milliseconds(300))
        #expect(plan.stretches.count == 1)
        #expect(plan.entries.allSatisfy { !$0.predicted })

        var other = MotorPlan(onsetLatency: .zero, safeMaximumOn: .milliseconds(1000))
        other.predict([boundary], now: t0)
        other.predict([], now: t0 + .milliseconds(100))
        #expect(other.stretches.isEmpty)
    }

    @Test("A predicted vibration that has started plays out even if the future changed")
    func startedPredictionStays() {
        var plan = MotorPlan(onsetLatency: .zero, safeMaximumOn: .milliseconds(1000))
        let boundary = PlannedVibration(pattern: short, label: "interval", due: t0)
        plan.predict([boundary], now: t0 - .milliseconds(10))
        _ = plan.markStarted(upTo: t0)
        plan.predict([], now: t0 + .milliseconds(1))
        #expect(plan.stretches.count == 1)
    }

    @Test("A predicted vibration a stall passed starts when the loop acts, whole, and is confirmed, not planned twice")
    func lateStartsWhole() {
        var plan = MotorPlan(onsetLatency: .zero, safeMaximumOn: .milliseconds(1000))
        let boundary = PlannedVibration(pattern: HapticPattern([.short, .short]), label: "interval", due: t0 + .milliseconds(300))
        plan.predict([boundary], now: t0)
        let offsets = plan.stretches.map { $0.start - boundary.due }
        let lengths = plan.stretches.map { $0.end - $0.start }
        // The process was stopped from before the boundary until 1.5 s after it.
        let resumed = t0 + .milliseconds(1800)
        plan.startLateOnesWhole(at: resumed)
        #expect(plan.stretches.map { $0.start - resumed } == offsets)
        #expect(plan.stretches.map { $0.end - $0.start } == lengths)
        #expect(plan.stretch(covering: resumed) != nil)
        #expect(plan.markStarted(upTo: resumed).map(\.vibration) == [boundary])
        plan.prune(before: resumed)
        plan.add(boundary, now: resumed + .milliseconds(1))
        #expect(plan.entries.count == 1)
        #expect(plan.stretches.count == 2)
        // Once started it is not moved again.
        plan.startLateOnesWhole(at: resumed + .milliseconds(50))
        #expect(plan.stretches.first?.start == resumed)
    }

    @Test("After a stall, vibrations that would overlap a late one follow it 150 ms after its end, each whole")
    func lateOnesQueue() {
        var plan = MotorPlan(onsetLatency: .zero, safeMaximumOn: .milliseconds(1000))
        let short = HapticPattern([.short])   // 80 ms
        let second = PlannedVibration(pattern: short, label: "interval", due: t0 + .seconds(1))
        plan.predict([second], now: t0)
        let resumed = t0 + .milliseconds(2500)
        plan.startLateOnesWhole(at: resumed)
        #expect(plan.entries.map(\.late) == [true])
        #expect(plan.markStarted(upTo: resumed).count == 1)
        plan.add(second, now: resumed)   // the engine reaches boundary 2: confirmed
        // The engine then asks for the next boundary, due during the stall too: it queues.
        let third = PlannedVibration(pattern: short, label: "interval", due: t0 + .seconds(2))
        plan.add(third, now: resumed)
        // An on-time vibration that the late one would overlap waits for it as well.
        let fourth = PlannedVibration(pattern: short, label: "interval", due: resumed + .milliseconds(300))
        plan.predict([fourth], now: resumed)
        #expect(plan.stretches.map(\.start) == [resumed, resumed + .milliseconds(230), resumed + .milliseconds(460)])
        #expect(plan.stretches.map { $0.end - $0.start } == [.milliseconds(80), .milliseconds(80), .milliseconds(80)])
    }

    @Test("An ordinary late wake-up (microseconds) moves a vibration whole but queues nothing behind it")
    func microsecondsLate() {
        var plan = MotorPlan(onsetLatency: .zero, safeMaximumOn: .milliseconds(1000))
        let boundary = PlannedVibration(pattern: HapticPattern([.short]), label: "interval", due: t0)
        plan.predict([boundary], now: t0 - .milliseconds(10))
        plan.startLateOnesWhole(at: t0 + .nanoseconds(160_000))
        #expect(plan.entries.map(\.late) == [false])
        let next = PlannedVibration(pattern: HapticPattern([.tick]), label: "session-done", due: t0 + .milliseconds(230))
        plan.add(next, now: t0 + .milliseconds(1))
        #expect(plan.stretches.map(\.start) == [t0 + .nanoseconds(160_000), t0 + .milliseconds(230)])
    }

    @Test("Each pulse is cut to the safe maximum; a run of touching pulses is one run")
    func safeMaximum() {
        var plan = MotorPlan(onsetLatency: .zero, safeMaximumOn: .milliseconds(100))
        plan.add(PlannedVibration(label: "long", due: t0, pulses: [.init(offset: .zero, length: .seconds(3))]), now: t0)
        #expect(plan.stretches.map { $0.end - $0.start } == [.milliseconds(100)])
        plan.add(PlannedVibration(label: "next", due: t0 + .milliseconds(100), pulses: [.init(offset: .zero, length: .milliseconds(50))]), now: t0)
        #expect(plan.endOfRun(covering: t0) == t0 + .milliseconds(150))
    }
}
