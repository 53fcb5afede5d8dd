/// The battery rules (docs/RUNTIME.md, "Battery"), as a pure state machine the daemon's controller
/// feeds with readings and asks at each turn: the low cue once per discharge and never inside an
/// attempt or a Passive session, no new session at or below the stop level, a Passive session the battery cannot finish
/// ended early, and at the critical level the session saved and the device powered off. Charging
/// clears every state. A board without a battery never gives it a reading, and nothing changes.
public struct BatteryMonitor: Hashable, Sendable {
    /// What the device is doing, as far as the battery rules care.
    public enum Session: Hashable, Sendable {
        /// Idle (or the summary between sessions).
        case none
        /// An attempt is being timed (or Reproduction presents its interval): no cue may play.
        case insideAttempt
        /// Between attempts of a Challenge, Fear or Reproduction session, waiting for the start press
        /// (no cue of the session's is playing).
        case betweenAttempts
        /// A Passive session with this much of its planned time left.
        case passive(remaining: TimeSpan)
    }

    /// What the controller is to do.
    public enum Decision: Hashable, Sendable {
        /// Play `HapticCue.lowBattery`.
        case lowCue
        /// End the running Passive session now, saved as completed, with this reason recorded.
        case endPassive(reason: String)
        /// Save the session (if any), play `HapticCue.batteryCritical`, then power off; `reason` is
        /// recorded with the session and said on the console.
        case powerOff(reason: String)
    }

    /// The newest reading (nil before the first, and always on a board without a battery).
    public private(set) var reading: BatteryReading?
    public private(set) var discharge = BatteryDischarge()
    private var lowCueOwed = false
    private var lowCueGiven = false
    private var powerOffDecided = false

    public init() {}

    /// Takes a reading made at `instant`.
    public mutating func receive(_ reading: BatteryReading, at instant: MonotonicInstant, thresholds: BatteryThresholds) {
        self.reading = reading
        if reading.isOnExternalPower {
            discharge.reset()
            lowCueOwed = false
            lowCueGiven = false
            powerOffDecided = false
            return
        }
        discharge.add(percent: reading.percent, at: instant)
        if reading.percent <= thresholds.low, !lowCueGiven { lowCueOwed = true }
    }

    /// What to do now, given the session; asked after every reading and whenever the session's phase
    /// changes, so a low cue deferred by an attempt plays as soon as the attempt is over. Each decision
    /// is given once.
    public mutating func decide(session: Session, thresholds: BatteryThresholds) -> [Decision] {
        guard let reading, !reading.isOnExternalPower else { return [] }
        if reading.percent <= thresholds.critical {
            guard !powerOffDecided else { return [] }
            powerOffDecided = true
            lowCueOwed = false
            let saved = session == .none ? "" : "the session was saved and "
            return [.powerOff(reason: "The battery is at \(reading.percent) %, the critical level (battery-critical \(thresholds.critical) %): \(saved)the device powers off. Charge it.")]
        }
        var decisions: [Decision] = []
        // Never inside an attempt, nor inside a Passive session: its boundaries are what the person
        // is timing, and a cue among them would be felt as one. Owed, it plays when the session ends
        // (or between attempts); a Passive session the battery cannot finish is ended below.
        if lowCueOwed, session == .none || session == .betweenAttempts {
            lowCueOwed = false
            lowCueGiven = true
            decisions.append(.lowCue)
        }
        if reading.percent <= thresholds.stop, case .passive(let remaining) = session,
           let lasts = discharge.timeUntil(thresholds.critical, from: reading.percent), lasts < remaining {
            decisions.append(.endPassive(reason: "Ended early: the battery (\(reading.percent) %) lasts about \(DurationText.format(magnitudeOf: lasts)) more before the critical level (\(thresholds.critical) %), less than the \(DurationText.format(magnitudeOf: remaining)) this session had left."))
        }
        return decisions
    }

    /// Why no session may start now (nil: one may), in the words every surface shows.
    public func startRefusal(thresholds: BatteryThresholds) -> String? {
        guard let reading, !reading.isOnExternalPower, reading.percent <= thresholds.stop else { return nil }
        return "The battery is at \(reading.percent) %: no new session starts at or below \(thresholds.stop) % (battery-stop). Charge it first."
    }

    /// The battery as the surfaces show it (nil: no reading, a board without a battery).
    public func status(thresholds: BatteryThresholds) -> BatteryStatus? {
        guard let reading else { return nil }
        let level: BatteryStatus.Level
        if reading.isOnExternalPower {
            level = .normal
        } else if reading.percent <= thresholds.critical {
            level = .critical
        } else if reading.percent <= thresholds.stop {
            level = .stop
        } else if reading.percent <= thresholds.low {
            level = .low
        } else {
            level = .normal
        }
        return BatteryStatus(percent: reading.percent, charge: reading.charge, level: level,
                             reason: startRefusal(thresholds: thresholds))
    }
}
