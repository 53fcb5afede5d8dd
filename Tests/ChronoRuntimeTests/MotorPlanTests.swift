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

    @Test("Each pulse is cut to the safe maximum; a run of touching pulses is one run")
    func safeMaximum() {
        var plan = MotorPlan(onsetLatency: .zero, safeMaximumOn: .milliseconds(100))
        plan.add(PlannedVibration(label: "long", due: t0, pulses: [.init(offset: .zero, length: .seconds(3))]), now: t0)
        #expect(plan.stretches.map { $0.end - $0.start } == [.milliseconds(100)])
        plan.add(PlannedVibration(label: "next", due: t0 + .milliseconds(100), pulses: [.init(offset: .zero, length: .milliseconds(50))]), now: t0)
        #expect(plan.endOfRun(covering: t0) == t0 + .milliseconds(150))
    }
}
