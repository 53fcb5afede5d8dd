import ChronoCore

/// The battery on the device (docs/RUNTIME.md, "Battery"): readings from the daemon's battery thread
/// go through the core's `BatteryMonitor`, whose decisions become the low cue, an early end of a
/// Passive session, a refused start and, at the critical level, the saved session, the last cue and the
/// power-off request. A board without a battery sends no reading, and none of this happens.
extension DeviceDaemonController {
    /// How long after the critical cue's end the power-off is asked for, so the motor has stopped
    /// before the system goes down.
    static let powerOffMargin = TimeSpan.milliseconds(500)

    /// A reading from the battery thread.
    func receiveBattery(_ reading: BatteryReading, at now: MonotonicInstant) -> [LoopAction] {
        battery.receive(reading, at: now, thresholds: snapshot.batteryThresholds)
        // Charging clears the states, a power-off not yet asked for too.
        if reading.isOnExternalPower, powerOffDue != nil {
            powerOffDue = nil
            return [.console("Charging: the power-off is called off.")] + applyBattery(at: now) + [.state(currentState())]
        }
        return applyBattery(at: now) + [.state(currentState())]
    }

    /// What the battery rules decide now, as actions. Asked after every event too, so a low cue held
    /// back by an attempt plays as soon as the attempt is over, and the power-off is asked for on time.
    func applyBattery(at now: MonotonicInstant) -> [LoopAction] {
        var actions: [LoopAction] = []
        if let due = powerOffDue, now >= due {
            powerOffDue = nil
            actions.append(.console("Powering off: the battery is at the critical level."))
            let powerOff = powerOff
            actions.append(.offLoop { powerOff() })
        }
        guard let reading = battery.reading else { return actions }
        let thresholds = snapshot.batteryThresholds
        for decision in battery.decide(session: batterySession(at: now), thresholds: thresholds) {
            switch decision {
            case .lowCue:
                actions.append(.vibrate(batteryCue(.lowBattery, at: now, after: actions)))
                actions.append(.console("Battery low: \(reading.text). Charge the device soon; at \(thresholds.stop) % no new session starts."))
            case .endPassive(let reason):
                guard let runner else { continue }
                actions.append(.console(reason))
                actions += runner.endEarly(at: now, reason: reason)
                if runner.isOver { actions += enterIdle(at: now, announce: false) }
            case .powerOff(let reason):
                actions.append(.console(reason))
                if let runner {
                    actions += runner.endEarly(at: now, reason: reason)
                    if runner.isOver { actions += enterIdle(at: now, announce: false) }
                }
                // After the session's own last cue, if ending it gave one.
                let cue = HapticCue.batteryCritical
                let critical = batteryCue(cue, at: now, after: actions)
                actions.append(.vibrate(critical))
                powerOffDue = critical.end + Self.powerOffMargin
            }
        }
        return actions
    }

    /// Why a start is refused for the battery now (nil: it is not).
    var batteryRefusal: String? { battery.startRefusal(thresholds: snapshot.batteryThresholds) }

    /// An idle tap or a preset at the stop level: the low-battery cue instead of a session, and the reason.
    func refuseStartForBattery(_ reason: String, at now: MonotonicInstant) -> [LoopAction] {
        [.vibrate(batteryCue(.lowBattery, at: now)), .console("No session: \(reason)"), .state(currentState())]
    }

    /// The session as the battery rules see it at `now`.
    func batterySession(at now: MonotonicInstant) -> BatteryMonitor.Session {
        guard let runner else { return .none }
        switch runner.engine.phase {
        // The feedback flash is the attempt's end, its cue still playing: a cue now would run into it.
        case .presenting, .attemptRunning, .feedbackFlash: return .insideAttempt
        case .waitingForStart: return .betweenAttempts
        case .passiveRunning:
            let configuration = runner.configuration
            let end = runner.engine.startedAt + configuration.interval.span * Int64(configuration.plannedCount)
            return .passive(remaining: max(.zero, end - now))
        case .sessionSummary, .completed, .aborted, .interrupted: return .none
        }
    }

    /// The pause before a battery cue that follows another cue. A pattern's own elements are 60–150 ms
    /// apart, so a cue 150 ms after the session-done cue (B B) would be felt as one longer pattern
    /// (B B B B t); a full second makes it a second message.
    static let cueSeparation = TimeSpan.seconds(1)

    /// A battery cue asked for at `now`: it plays now, or, while another cue is playing or has just
    /// ended (the session-done cue as a session ends, including one among `earlier`, the actions of
    /// this turn not yet executed), `cueSeparation` after it.
    private func batteryCue(_ cue: HapticCue, at now: MonotonicInstant, after earlier: [LoopAction] = []) -> PlannedVibration {
        let quiet = earlier.reduce(motorQuietAt) { quiet, action in
            if case .vibrate(let vibration) = action { return max(quiet, vibration.end) }
            return quiet
        }
        let due = quiet + Self.cueSeparation > now ? quiet + Self.cueSeparation : now
        return PlannedVibration(pattern: cue.pattern, label: .cue(cue), due: due)
    }
}
