import ChronoCore
import ChronoTesting
import Synchronization
import Testing
@testable import ChronoRuntime

/// The battery rules in the daemon's own controller on a virtual clock: readings posted at exact
/// instants as the battery thread posts them, button edges and deadlines fed as the loop feeds them.
@Suite("Battery in the daemon controller on a virtual clock")
struct DaemonBatteryTests {
    static func ms(_ value: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: value * 1_000_000) }
    static func minute(_ value: Int64) -> MonotonicInstant { ms(value * 60_000) }
    static func discharging(_ percent: Int) -> BatteryReading { BatteryReading(percent: percent, charge: .discharging)! }

    /// How many times the controller asked for the power-off.
    final class Count: Sendable {
        let value = Mutex(0)
    }

    final class Rig: ControllerRig {
        let powerOffCount = Count()

        override init(library: DeviceLibrary, startCue: HapticCue? = nil) {
            super.init(library: library, startCue: startCue)
            let count = powerOffCount
            controller.powerOff = { count.value.withLock { $0 += 1 } }
        }

        var powerOffs: Int { powerOffCount.value.withLock { $0 } }

        func battery(_ reading: BatteryReading, at instant: MonotonicInstant) {
            take(controller.receive(.battery(reading), at: instant))
        }
    }

    static func tap(_ at: Int64) -> [SessionEvent] {
        [.button(RawButtonEdge(pressed: true, at: ms(at))), .button(RawButtonEdge(pressed: false, at: ms(at + 60)))]
    }

    @Test("no reading (a board without a battery): the state has no battery and nothing is refused")
    func noBattery() throws {
        let rig = Rig(try QuickSession.configuration(.passive, intervalMilliseconds: 300, count: 5))
        #expect(rig.lastState?.battery == nil)
        guard case .started = rig.ask(.start(.lastConfiguration), at: Self.ms(100)) else { Issue.record("start refused"); return }
    }

    @Test("at 15 % in idle the low cue plays once, and the state shows the level")
    func lowCueOnce() throws {
        let rig = Rig(try QuickSession.configuration(.passive, intervalMilliseconds: 300, count: 5))
        rig.battery(Self.discharging(15), at: Self.ms(1_000))
        rig.battery(Self.discharging(14), at: Self.minute(1))
        #expect(rig.cues.map(\.0) == ["low-battery"])
        #expect(rig.cues.first?.1 == Self.ms(1_000))
        #expect(rig.lines.contains("Battery low: 15 %, discharging. Charge the device soon; at 5 % no new session starts."))
        #expect(rig.lastState?.battery == BatteryStatus(percent: 14, charge: .discharging, level: .low))
    }

    @Test("a low cue owed during a Passive session waits for the session-done cue to end, then one second more")
    func lowCueAfterSessionDone() throws {
        let rig = Rig(try QuickSession.configuration(.passive, intervalMilliseconds: 300, count: 5))
        guard case .started = rig.ask(.start(.lastConfiguration), at: Self.ms(100)) else { Issue.record("start refused"); return }
        rig.battery(Self.discharging(15), at: Self.ms(500))
        #expect(!rig.cues.map(\.0).contains("low-battery"))
        rig.feed([], until: Self.ms(5_000))
        let done = try #require(rig.cues.first { $0.0 == "session-done" })
        let low = try #require(rig.cues.first { $0.0 == "low-battery" })
        // session-done is B B: 600 ms on, 150 ms off, 600 ms on.
        #expect(low.1 == done.1 + .milliseconds(1_350) + .seconds(1))
        #expect(rig.cues.filter { $0.0 == "low-battery" }.count == 1)
    }

    @Test("at 5 % a start request is refused with the reason, and an idle tap plays the low cue and starts nothing")
    func stopLevel() throws {
        let rig = Rig(try QuickSession.configuration(.passive, intervalMilliseconds: 300, count: 5))
        rig.battery(Self.discharging(5), at: Self.ms(1_000))
        let reason = "The battery is at 5 %: no new session starts at or below 5 % (battery-stop). Charge it first."
        #expect(rig.ask(.start(.lastConfiguration), at: Self.ms(2_000)) == .refused(.batteryLow(reason)))
        #expect(DeviceRefusal.batteryLow(reason).code == .batteryLow)
        rig.feed(Self.tap(3_000), until: Self.ms(4_000))
        #expect(rig.recorder.started.isEmpty)
        #expect(rig.lines.contains("No session: \(reason)"))
        #expect(rig.cues.map(\.0) == ["low-battery", "low-battery"])
        #expect(rig.lastState?.battery?.reason == reason)
        // Charging clears it: the tap starts a session.
        rig.battery(BatteryReading(percent: 5, charge: .charging)!, at: Self.ms(5_000))
        #expect(rig.lastState?.battery == BatteryStatus(percent: 5, charge: .charging, level: .normal))
        rig.feed(Self.tap(6_000), until: Self.ms(6_500))
        #expect(rig.recorder.started.count == 1)
    }

    @Test("a Passive session the battery cannot finish is ended at 5 % and saved as completed with the reason")
    func passiveEndedEarly() throws {
        // Passive, 1 min × 60: an hour.
        let rig = Rig(try QuickSession.configuration(.passive, intervalMilliseconds: 60_000, count: 60))
        guard case .started = rig.ask(.start(.lastConfiguration), at: Self.ms(0)) else { Issue.record("start refused"); return }
        rig.battery(Self.discharging(10), at: Self.ms(30_000))
        rig.feed([], until: Self.ms(630_000))
        rig.battery(Self.discharging(5), at: Self.ms(630_000))
        let finished = try #require(rig.recorder.finished.first)
        let reason = "Ended early: the battery (5 %) lasts about 4m 0s more before the critical level (3 %), less than the 49m 30s this session had left."
        #expect(finished.outcome.status == .completed)
        #expect(finished.outcome.reason == reason)
        #expect(finished.outcome.boundaries.count == 10)
        #expect(rig.lines.contains(reason))
    }

    @Test("critical: the running session is saved, the last cue plays, and the power-off is asked for once after it")
    func critical() throws {
        let rig = Rig(try QuickSession.configuration(.passive, intervalMilliseconds: 1_000, count: 60))
        guard case .started = rig.ask(.start(.lastConfiguration), at: Self.ms(0)) else { Issue.record("start refused"); return }
        rig.feed([], until: Self.ms(2_500))
        rig.battery(Self.discharging(3), at: Self.ms(2_500))
        let reason = "The battery is at 3 %, the critical level (battery-critical 3 %): the session was saved and the device powers off. Charge it."
        let finished = try #require(rig.recorder.finished.first)
        #expect(finished.outcome.status == .completed && finished.outcome.reason == reason)
        // The saved session's done cue (B B, 1350 ms) first, at 2.5 s; the critical cue one second after
        // it, so the two are felt apart.
        #expect(rig.cues.suffix(2).map(\.0) == ["session-done", "battery-critical"])
        let critical = try #require(rig.cues.last)
        #expect(rig.cues.suffix(2).map(\.1) == [Self.ms(2_500), Self.ms(4_850)])
        let due = critical.1 + HapticCue.batteryCritical.pattern.duration + DeviceDaemonController.powerOffMargin
        #expect(rig.controller.nextDeadline.map { $0 <= due } == true)
        rig.feed([], until: due - .milliseconds(1))
        #expect(rig.powerOffs == 0)
        rig.feed([], until: due + .seconds(10))
        #expect(rig.powerOffs == 1)
        #expect(rig.lines.contains("Powering off: the battery is at the critical level."))
        rig.battery(Self.discharging(2), at: due + .seconds(20))
        rig.feed([], until: due + .seconds(30))
        #expect(rig.powerOffs == 1)
    }
}
