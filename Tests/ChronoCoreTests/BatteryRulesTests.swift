import ChronoCore
import Testing

@Suite("Battery rules on virtual time: low cue, stop, early Passive end, critical power-off, charging")
struct BatteryRulesTests {
    static let thresholds = BatteryThresholds.standard
    static func minute(_ n: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: n * 60_000_000_000) }
    static func discharging(_ percent: Int) -> BatteryReading { BatteryReading(percent: percent, charge: .discharging)! }

    @Test("the standard thresholds are 15, 5 and 3 %; levels out of order or range are refused")
    func thresholdValues() {
        #expect(Self.thresholds == BatteryThresholds(low: 15, stop: 5, critical: 3))
        #expect(BatteryThresholds(low: 10, stop: 10, critical: 3) == nil)
        #expect(BatteryThresholds(low: 15, stop: 5, critical: 5) == nil)
        #expect(BatteryThresholds(low: 51, stop: 5, critical: 3) == nil)
        #expect(BatteryThresholds(low: 15, stop: 5, critical: 0) == nil)
        #expect(BatteryThresholds.orderProblem(low: 15, stop: 20, critical: 3)
            == "the battery levels must keep battery-critical < battery-stop < battery-low; they would be 3 %, 20 % and 15 %")
        #expect(BatteryThresholds.orderProblem(low: 15, stop: 5, critical: 3) == nil)
    }

    @Test("readings outside 0-100 % or 1-30000 mV are no readings")
    func readingBounds() {
        #expect(BatteryReading(percent: 101, charge: .full) == nil)
        #expect(BatteryReading(percent: -1, charge: .discharging) == nil)
        #expect(BatteryReading(percent: 50, charge: .discharging, millivolts: 0) == nil)
        #expect(BatteryReading(percent: 50, charge: .discharging, millivolts: 3700)?.millivolts == 3700)
        #expect(Self.discharging(12).text == "12 %, discharging")
    }

    @Test("the low cue plays once per discharge at 15 %, and not again at 14 % or 10 %")
    func lowCueOnce() {
        var monitor = BatteryMonitor()
        monitor.receive(Self.discharging(16), at: Self.minute(0), thresholds: Self.thresholds)
        #expect(monitor.decide(session: .none, thresholds: Self.thresholds) == [])
        monitor.receive(Self.discharging(15), at: Self.minute(1), thresholds: Self.thresholds)
        #expect(monitor.decide(session: .none, thresholds: Self.thresholds) == [.lowCue])
        #expect(monitor.decide(session: .none, thresholds: Self.thresholds) == [])
        for (minute, percent) in [(2, 14), (3, 10)] {
            monitor.receive(Self.discharging(percent), at: Self.minute(Int64(minute)), thresholds: Self.thresholds)
            #expect(monitor.decide(session: .none, thresholds: Self.thresholds) == [])
        }
        #expect(monitor.status(thresholds: Self.thresholds) == BatteryStatus(percent: 10, charge: .discharging, level: .low))
    }

    @Test("inside an attempt the low cue waits, and plays at the first turn outside it")
    func lowCueDeferred() {
        var monitor = BatteryMonitor()
        monitor.receive(Self.discharging(14), at: Self.minute(0), thresholds: Self.thresholds)
        #expect(monitor.decide(session: .insideAttempt, thresholds: Self.thresholds) == [])
        #expect(monitor.decide(session: .insideAttempt, thresholds: Self.thresholds) == [])
        #expect(monitor.decide(session: .betweenAttempts, thresholds: Self.thresholds) == [.lowCue])
        #expect(monitor.decide(session: .none, thresholds: Self.thresholds) == [])
    }

    @Test("charging clears the states: the next discharge to 15 % plays the cue again")
    func chargingClears() {
        var monitor = BatteryMonitor()
        monitor.receive(Self.discharging(15), at: Self.minute(0), thresholds: Self.thresholds)
        #expect(monitor.decide(session: .none, thresholds: Self.thresholds) == [.lowCue])
        monitor.receive(BatteryReading(percent: 4, charge: .charging)!, at: Self.minute(1), thresholds: Self.thresholds)
        #expect(monitor.startRefusal(thresholds: Self.thresholds) == nil)
        #expect(monitor.decide(session: .none, thresholds: Self.thresholds) == [])
        #expect(monitor.status(thresholds: Self.thresholds) == BatteryStatus(percent: 4, charge: .charging, level: .normal))
        monitor.receive(BatteryReading(percent: 80, charge: .full)!, at: Self.minute(60), thresholds: Self.thresholds)
        monitor.receive(Self.discharging(15), at: Self.minute(200), thresholds: Self.thresholds)
        #expect(monitor.decide(session: .none, thresholds: Self.thresholds) == [.lowCue])
        #expect(monitor.discharge.samples == [BatteryDischarge.Sample(at: Self.minute(200), percent: 15)])
    }

    @Test("at 5 % no new session starts, with the reason; at 6 % one does")
    func stopRefusal() {
        var monitor = BatteryMonitor()
        #expect(monitor.startRefusal(thresholds: Self.thresholds) == nil)
        monitor.receive(Self.discharging(6), at: Self.minute(0), thresholds: Self.thresholds)
        #expect(monitor.startRefusal(thresholds: Self.thresholds) == nil)
        monitor.receive(Self.discharging(5), at: Self.minute(1), thresholds: Self.thresholds)
        let reason = "The battery is at 5 %: no new session starts at or below 5 % (battery-stop). Charge it first."
        #expect(monitor.startRefusal(thresholds: Self.thresholds) == reason)
        #expect(monitor.status(thresholds: Self.thresholds) == BatteryStatus(percent: 5, charge: .discharging, level: .stop, reason: reason))
        #expect(monitor.status(thresholds: Self.thresholds)?.line == "battery 5 % (discharging, stop)")
    }

    @Test("the discharge rate: 1 % per 2 minutes from 10 minutes of readings; unknown before 5 minutes or without a drop")
    func dischargeRate() {
        var discharge = BatteryDischarge()
        discharge.add(percent: 10, at: Self.minute(0))
        discharge.add(percent: 9, at: Self.minute(4))
        #expect(discharge.timePerPercent == nil)
        discharge.add(percent: 5, at: Self.minute(10))
        #expect(discharge.timePerPercent == TimeSpan.seconds(120))
        #expect(discharge.timeUntil(3, from: 5) == TimeSpan.seconds(240))
        var flat = BatteryDischarge()
        flat.add(percent: 40, at: Self.minute(0))
        flat.add(percent: 40, at: Self.minute(20))
        #expect(flat.timePerPercent == nil)
        // Readings older than 30 minutes drop out: the rate follows the present draw.
        discharge.add(percent: 4, at: Self.minute(40))
        #expect(discharge.samples.map(\.percent) == [5, 4])
        #expect(discharge.timePerPercent == TimeSpan.seconds(30 * 60))
    }

    @Test("at 5 % a Passive session with 20 minutes left and 4 minutes of battery is ended early, with the reason")
    func passiveEndedEarly() {
        var monitor = BatteryMonitor()
        monitor.receive(Self.discharging(10), at: Self.minute(0), thresholds: Self.thresholds)
        _ = monitor.decide(session: .passive(remaining: .seconds(30 * 60)), thresholds: Self.thresholds)
        monitor.receive(Self.discharging(5), at: Self.minute(10), thresholds: Self.thresholds)
        #expect(monitor.decide(session: .passive(remaining: .seconds(20 * 60)), thresholds: Self.thresholds)
            == [.endPassive(reason: "Ended early: the battery (5 %) lasts about 4m 0s more before the critical level (3 %), less than the 20m 0s this session had left.")])
    }

    @Test("a Passive session the battery can finish goes on at 5 %, the low cue held back until it ends; above the stop level it is never ended")
    func passiveCovered() {
        var monitor = BatteryMonitor()
        monitor.receive(Self.discharging(7), at: Self.minute(0), thresholds: Self.thresholds)
        monitor.receive(Self.discharging(6), at: Self.minute(10), thresholds: Self.thresholds)
        #expect(monitor.decide(session: .passive(remaining: .seconds(3600)), thresholds: Self.thresholds) == [])
        monitor.receive(Self.discharging(5), at: Self.minute(20), thresholds: Self.thresholds)
        // 10 minutes a percent: 20 minutes to 3 %, more than the 19 left.
        #expect(monitor.decide(session: .passive(remaining: .seconds(19 * 60)), thresholds: Self.thresholds) == [])
        #expect(monitor.decide(session: .passive(remaining: .seconds(21 * 60)), thresholds: Self.thresholds).count == 1)
        // The session over, the owed cue plays, once.
        #expect(monitor.decide(session: .none, thresholds: Self.thresholds) == [.lowCue])
        #expect(monitor.decide(session: .none, thresholds: Self.thresholds) == [])
    }

    @Test("at the critical level the power-off is decided once, even inside an attempt, and the owed low cue is dropped")
    func critical() {
        var monitor = BatteryMonitor()
        monitor.receive(Self.discharging(3), at: Self.minute(0), thresholds: Self.thresholds)
        #expect(monitor.decide(session: .insideAttempt, thresholds: Self.thresholds)
            == [.powerOff(reason: "The battery is at 3 %, the critical level (battery-critical 3 %): the session was saved and the device powers off. Charge it.")])
        #expect(monitor.decide(session: .none, thresholds: Self.thresholds) == [])
        monitor.receive(Self.discharging(2), at: Self.minute(1), thresholds: Self.thresholds)
        var idle = BatteryMonitor()
        idle.receive(Self.discharging(2), at: Self.minute(0), thresholds: Self.thresholds)
        #expect(idle.decide(session: .none, thresholds: Self.thresholds)
            == [.powerOff(reason: "The battery is at 2 %, the critical level (battery-critical 3 %): the device powers off. Charge it.")])
        #expect(monitor.decide(session: .none, thresholds: Self.thresholds) == [])
        #expect(monitor.status(thresholds: Self.thresholds)?.level == .critical)
    }

    @Test("no battery: no reading, no status, nothing refused or decided")
    func noBattery() {
        var monitor = BatteryMonitor()
        #expect(monitor.status(thresholds: Self.thresholds) == nil)
        #expect(monitor.decide(session: .passive(remaining: .seconds(60)), thresholds: Self.thresholds) == [])
        #expect(monitor.startRefusal(thresholds: Self.thresholds) == nil)
    }
}
