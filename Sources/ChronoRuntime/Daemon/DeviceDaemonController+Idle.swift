import ChronoCore
import Foundation

/// Sessions and the idle menu between them: starting a session as allowed, going back to idle, the menu and what a tap starts.
extension DeviceDaemonController {
    /// - Parameter study: the planned session's tag when this is the study's session (its records carry it).
    func startSession(_ requested: SessionConfiguration, at now: MonotonicInstant, study: StudyTag? = nil) -> [LoopAction] {
        // At the battery's stop level nothing starts: a tap gets the low-battery cue and the reason.
        if let reason = batteryRefusal { return refuseStartForBattery(reason, at: now) }
        if let reason = snapshot.updateRefusal {
            return [.vibrate(PlannedVibration(pattern: HapticCue.error.pattern, label: .cue(.error), due: max(now, motorQuietAt))),
                    .console("No session: \(reason)"), .state(currentState())]
        }
        let configuration = runnable(requested)
        var actions: [LoopAction] = []
        if configuration.mode != requested.mode {
            actions.append(.console("Fear Mode is not opted into: running Challenge instead (`chronoception settings set fear-mode on`, or start the daemon with --i-understand-fear-mode)."))
        }
        let sound = configuration.mode == .fear ? soundStatus() : .inaudible(reason: "not a Fear session")
        let runner = SessionRunner(
            configuration: configuration, startedAt: now, anchor: wallClock(),
            sessionID: UUID().uuidString,
            context: SessionContext(board: board, pressHint: pressHint, soundAudibility: sound,
                                    healthStatus: snapshot.healthStatus))
        self.runner = runner
        lastRun = (runner.sessionID, configuration)
        studyRun = study.map { (runner.sessionID, $0) }
        menu = nil
        // Announced again when the device is back in idle: the person may have forgotten it.
        announcedPairing = nil
        let keeper = keeper
        // After the start record (posted by `begin()`), so the refreshed snapshot counts this use.
        return actions + runner.begin() + [.offLoop { keeper.refresh() }]
    }

    func enterIdle(at now: MonotonicInstant, announce: Bool) -> [LoopAction] {
        var actions: [LoopAction] = []
        if runner != nil {
            let keeper = keeper
            // After the finish record: the next snapshot knows this session and its health delivery.
            actions.append(.offLoop { keeper.refresh() })
        }
        if runner != nil { idleSince = now }
        runner = nil
        snapshot = keeper.latest
        menu = makeMenu()
        menuOutdated = false
        let what = describe(menu!.lastConfiguration)
        actions.append(.console(announce
            ? "Ready. Tap (\(pressHint)) to start \(what); hold to browse presets. Stop with Ctrl-C or SIGTERM."
            : "Idle. Tap to start \(what) again; hold to \(pairings.current == nil ? "browse presets" : "approve the pairing request")."))
        actions += showPairing(at: now)
        actions.append(.state(idleState(offering: nil)))
        return actions
    }

    /// Rebuilds the menu from the latest snapshot unless it is in use (browsing, a press held); an
    /// announced pairing request stays announced in the new menu.
    func rebuildMenuIfFree(at now: MonotonicInstant) -> [LoopAction] {
        guard menuOutdated, runner == nil, !stopped else { return [] }
        if let menu, menu.state != .idle || menu.isPressed { return [] }
        let before = menu.map { describe($0.lastConfiguration) }
        menu = makeMenu()
        menuOutdated = false
        var actions: [LoopAction] = [.state(idleState(offering: nil))]
        let after = describe(menu!.lastConfiguration)
        if before != after { actions.insert(.console("Settings changed. Tap to start \(after); hold to browse presets."), at: 0) }
        return actions
    }

    /// The newest completed session: the one this daemon has just completed while the snapshot does
    /// not know it yet (its finish record is being written), else the snapshot's from the store.
    var lastCompleted: DeviceState.LastSession? {
        if let justCompleted, justCompleted.sessionID == lastRun?.sessionID, justCompleted.sessionID != snapshot.lastCompletedID {
            return justCompleted.lastSession
        }
        return snapshot.lastCompleted
    }

    /// The id of the session `lastCompleted` names.
    var lastCompletedID: String? {
        if let justCompleted, justCompleted.sessionID == lastRun?.sessionID, justCompleted.sessionID != snapshot.lastCompletedID {
            return justCompleted.sessionID
        }
        return snapshot.lastCompletedID
    }

    /// What an idle tap starts: the study's next planned session when one is due now (`+Study`), else
    /// the person's own (`ownConfiguration`).
    func nextConfiguration() -> SessionConfiguration {
        dueStudySession()?.configuration ?? ownConfiguration()
    }

    /// The person's own next session, outside any study: the snapshot's choice, or — while the snapshot
    /// does not yet know the session this daemon ran last — that session's configuration with the
    /// current settings. A study session run last is not the person's own: the snapshot's choice stands.
    func ownConfiguration() -> SessionConfiguration {
        if let lastRun, lastRun.sessionID != snapshot.lastSessionID, studyRun?.sessionID != lastRun.sessionID {
            return snapshot.refreshed(lastRun.configuration)
        }
        return snapshot.nextConfiguration
    }

    /// What really runs for `configuration` that no one named now (a tap, a preset, the last session):
    /// the mode `FearPermission` runs it as (a Fear one without the opt-in runs as Challenge).
    func runnable(_ configuration: SessionConfiguration) -> SessionConfiguration {
        var runnable = configuration
        runnable.mode = fearPermission.mode(fromDefaults: configuration.mode)
        return runnable
    }

    /// The snapshot's answer of the Fear rule (decided off the loop from the flag and the settings).
    var fearPermission: FearPermission { FearPermission(allowed: snapshot.fearAllowed) }

    func makeMenu() -> IdleMenu {
        let last = nextConfiguration()
        var presets = snapshot.presets
        if !presets.contains(last.interval) { presets.insert(last.interval, at: 0) }
        var patterns = snapshot.patterns
        patterns.assign(ranked: presets)
        var menu = IdleMenu(lastConfiguration: last, presets: presets, patterns: patterns, presetBase: ownConfiguration())
        if let announcedPairing { menu.pairingAnnounced(at: announcedPairing.at) }
        return menu
    }

    func describe(_ configuration: SessionConfiguration) -> String {
        "\(configuration.mode.rawValue) \(configuration.interval) ×\(configuration.plannedCount)"
    }

    func idleState(offering preset: TrainingInterval?) -> DeviceState {
        var state = DeviceState(state: preset == nil ? .idle : .configuring,
                                 board: board, health: snapshot.healthStatus)
        if let configuration = menu?.lastConfiguration {
            state.mode = configuration.mode
            state.interval = configuration.interval
        }
        state.offeredPreset = preset
        // The one answer to "what does a tap start now": the configuration `.start(.lastConfiguration)` starts.
        let due = dueStudySession()
        state.nextSession = DeviceState.NextSession(runnable(due?.configuration ?? ownConfiguration()))
        state.nextSession?.inStudy = due != nil
        return state
    }
}
