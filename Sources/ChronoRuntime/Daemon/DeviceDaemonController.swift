import ChronoCore

/// The device daemon (`chronoception run`, SPEC §7): between sessions the one-button idle menu — a tap
/// starts the last session configuration, a long press offers the presets in frecency order, each
/// announced by its own H(I), and a tap picks one — and sessions follow one another until the daemon
/// is stopped. Actions (`DeviceAction`) from other threads start, end or discard sessions and ask the
/// person to approve a pairing.
///
/// Pairing requests wait in a `PairingQueue` and never block anything: the oldest is announced by the
/// pairing-request cue and named (companion and address) on the console, in the state file and to the
/// API; a long press begun in idle after the cue approves it (the idle menu decides); a tap still
/// starts a session; during a session requests only wait (and may expire), and the one shown is
/// announced again when the device is back in idle.
///
/// Runs on the loop thread and never touches a disk: what the idle menu needs comes from the
/// `SnapshotKeeper`'s latest snapshot, prepared off the loop. After each session starts and finishes,
/// and on SIGHUP, the daemon hands the keeper's refresh to the writer thread (after the records, so the
/// store already has them); the keeper then wakes the loop with `.snapshotChanged` and the idle menu is
/// rebuilt at the next moment it is not in use. The snapshot may lag the session that just ended, so
/// the daemon remembers the session it last ran and uses that configuration (with the current
/// settings) until the snapshot knows it.
public final class DeviceDaemonController: LoopController {
    /// Decides, just before a session starts, whether Fear's sound is audible (Fear sessions only).
    public typealias SoundCheck = () -> SoundStatus

    let keeper: SnapshotKeeper
    let board: String
    let pressHint: String
    let soundStatus: SoundCheck
    var snapshot: DeviceSnapshot
    var menu: IdleMenu?
    var runner: SessionRunner?
    var lastRun: (sessionID: String, configuration: SessionConfiguration)?
    /// The session this daemon completed last, as its states named it (see `lastCompleted`).
    var justCompleted: (sessionID: String, lastSession: DeviceState.LastSession)?
    var pairings = PairingQueue()
    var pairingReplies: [Int: @Sendable (DeviceReply) -> Void] = [:]
    /// The shown request whose cue has played, and when (nil: none shown, or not announced in idle yet).
    var announcedPairing: (id: Int, at: MonotonicInstant)?
    /// A new snapshot arrived while the menu was in use; rebuild it when it is idle again.
    var menuOutdated = false
    /// The wall clock paired with the monotonic one (the product's reads the kernel's; a test's maps its
    /// virtual time, so study days pass in microseconds).
    public var wallClock: @Sendable () -> WallClockAnchor = { MonotonicClock.wallClockAnchor() }
    /// The study session this daemon started last, with its tag (`+Study`).
    var studyRun: (sessionID: String, tag: StudyTag)?
    /// The study session this daemon completed last: counted before the snapshot knows it.
    var studyCompleted: (tag: StudyTag, completion: StudySchedule.Completion)?
    var stopped = false
    /// The battery rules' state (`+Battery`); never given a reading on a board without a battery.
    var battery = BatteryMonitor()
    /// When the power-off is to be asked for (after the critical cue has played); nil: not decided.
    var powerOffDue: MonotonicInstant?
    /// When the last vibration this controller asked for ends: a battery cue waits for it, so that it
    /// is never felt as part of the session-done cue it would otherwise run into.
    var motorQuietAt = MonotonicInstant.zero
    /// Asks the system to power off (`systemctl poweroff` on the card; a test's stand-in). Run off the
    /// loop thread, once, after the battery-critical cue.
    public var powerOff: @Sendable () -> Void = {}
    /// What this daemon has reminded of (`+Reminders`).
    var reminderLog = ReminderLog()
    /// Sessions this daemon completed, with their local start: today's count before the snapshot knows them.
    var completedHere: [String: WallTime] = [:]
    /// When the device last came back to idle from a session (reminders settle after it).
    var idleSince: MonotonicInstant?
    /// The instant of the last call the loop made (start, an event, a message): an already-due
    /// reminder's deadline, which stays put while the clock moves on.
    var lastInstant = MonotonicInstant.zero
    /// The desktop's notifier (`DesktopReminderNotifier`): given each reminder as it plays, off the
    /// loop thread; nil on a device without one.
    public var reminderNotifier: (@Sendable (Reminder) -> Void)?
    /// Played once when the loop starts (the button is armed then): `HapticCue.startup(setupProblems:)`.
    let startCue: HapticCue?

    /// - Parameters:
    ///   - keeper: the snapshots (its first one is ready before the loop starts).
    ///   - soundStatus: asked on the loop thread before a Fear session; keep it cheap (a cached value).
    ///   - startCue: the cue to play as the loop starts (`deviceReady` or `setupProblem`); nil plays none
    ///     (a loop built again after an input device came back: the device was already announced).
    public init(keeper: SnapshotKeeper, board: String, pressHint: String, soundStatus: @escaping SoundCheck,
                startCue: HapticCue? = nil) {
        self.keeper = keeper
        self.board = board
        self.pressHint = pressHint
        self.soundStatus = soundStatus
        self.startCue = startCue
        snapshot = keeper.latest
    }

    public func start(at now: MonotonicInstant) -> [LoopAction] {
        lastInstant = now
        // The loop calls this once the button is open and watched: the start cue says the device is up.
        let cue = startCue.map { [LoopAction.vibrate(PlannedVibration(pattern: $0.pattern, label: .cue($0), due: now))] } ?? []
        // Stamped like every later state: the first file already names the last session and withholds
        // its score when glanceable-privacy is on.
        return cue + stamped(enterIdle(at: now, announce: true))
    }

    public var nextDeadline: MonotonicInstant? {
        guard !stopped else { return nil }
        let own = runner != nil ? runner?.nextDeadline : menu?.nextDeadline
        // While idle, the moment the study line or the due session changes by itself.
        let study = runner == nil && snapshot.study != nil ? studyDeadline(after: wallClock().monotonic) : nil
        // While idle, the next reminder (or local midnight, where today's count starts again).
        let reminder = reminderDeadline(after: wallClock().monotonic)
        return [own, pairings.nextDeadline, study, reminder, powerOffDue].compactMap { $0 }.min()
    }

    public func handle(_ event: SessionEvent) -> [LoopAction] {
        guard !stopped else { return [] }
        lastInstant = max(lastInstant, event.instant)
        // A request whose window has passed is answered first, at its own instant's event.
        var actions = expirePairings(at: event.instant)
        if let runner {
            actions += runner.handle(event)
            if runner.isOver { actions += enterIdle(at: event.instant, announce: false) }
            // Stamped first, so the battery's cue knows when the session's own cues end.
            let own = stamped(actions)
            return own + stamped(applyBattery(at: event.instant))
        }
        guard var menu else { return stamped(actions) }
        let effects = menu.handle(event)
        self.menu = menu
        for effect in effects {
            switch effect {
            case .motor(let pattern, let label, let at):
                actions.append(.vibrate(PlannedVibration(pattern: pattern, label: label, due: at)))
            case .presetOffered(let interval, _):
                // While a study runs, a preset is the person's own session, marked as outside the study.
                let outside = studyStanding.map { !$0.status(at: wallNow(event.instant).unixNanoseconds).finished } ?? false
                actions.append(.console("Preset \(interval)\(outside ? " (outside the study)" : ""): tap to start it, hold for the next."))
                actions.append(.state(idleState(offering: interval)))
            case .backToIdle:
                actions.append(.console("Idle."))
                actions.append(.state(idleState(offering: nil)))
            case .startSession(let configuration, let at):
                // A study session due now is what a tap starts, even when it became due after the menu
                // was built; otherwise the menu may predate the latest snapshot (a press was under way
                // when it came): the session still gets the current settings.
                if let due = dueStudySession(at: at) {
                    actions += startSession(due.configuration, at: at, study: due.tag)
                } else if let waiting = studyAwaitingConsent(at: at) {
                    // The study's session is due but not consented to: a cue that says so, nothing starts.
                    actions += askForConsent(waiting, at: at)
                } else {
                    actions += startSession(snapshot.refreshed(configuration), at: at)
                }
            case .startPreset(let configuration, let at):
                // The person's own preset: outside the study, whatever is due.
                actions += startSession(snapshot.refreshed(configuration), at: at)
            case .approvePairing(let at):
                actions += approveShownPairing(at: at)
            }
        }
        if runner == nil, menuOutdated { actions += rebuildMenuIfFree(at: event.instant) }
        // A deadline while idle may be the study's (a session due, a day over): the state says so
        // (the loop drops a state that did not change).
        if runner == nil, case .deadline = event, snapshot.study != nil || snapshot.reminders.dailyGoal > 0 {
            actions.append(.state(currentState()))
        }
        if runner == nil { actions += remindIfDue(at: event.instant) }
        let own = stamped(actions)
        return own + stamped(applyBattery(at: event.instant))
    }

    public func predictedVibrations() -> [PlannedVibration] {
        stopped ? [] : runner?.predictedVibrations() ?? []
    }

    public func vibrationStarted(_ vibration: PlannedVibration, firedAt: MonotonicInstant) {
        runner?.vibrationStarted(vibration, firedAt: firedAt)
    }

    public func stop(at now: MonotonicInstant, reason: String) -> [LoopAction] {
        guard !stopped else { return [] }
        stopped = true
        var actions = runner?.interrupt(at: now, reason: reason) ?? []
        for entry in pairings.removeAll() {
            if let reply = pairingReplies.removeValue(forKey: entry.id) { actions.append(.offLoop { reply(.refused(.stopping)) }) }
        }
        announcedPairing = nil
        var state = idleState(offering: nil)
        state.state = .stopped
        state.nextSession = nil
        actions.append(.state(state))
        return stamped(actions)
    }

    public var isFinished: Bool { stopped }

    public func receive(_ message: ControllerMessage, at now: MonotonicInstant) -> [LoopAction] {
        lastInstant = max(lastInstant, now)
        switch message {
        case .snapshotChanged:
            let before = snapshot.update?.phase
            snapshot = keeper.latest
            menuOutdated = true
            // The state is published again stamped with the new snapshot (the loop drops it when nothing
            // changed): the rebuilt menu's, or, during a session or while the menu is in use, the current
            // one. So turning glanceable-privacy on hides the feedback at once, and an update's phase shows.
            let rebuilt = runner == nil ? rebuildMenuIfFree(at: now) : []
            let published: [LoopAction] = rebuilt.isEmpty ? [.state(currentState())] : rebuilt
            // The new slot has just confirmed itself (`chronoception update confirm`): the ready cue says
            // the device is itself again, on the new version.
            if before == .trying, snapshot.update?.phase == .confirmed, runner == nil {
                let cue = PlannedVibration(pattern: HapticCue.deviceReady.pattern, label: .cue(.deviceReady), due: max(now, motorQuietAt))
                return stamped([.vibrate(cue), .console(snapshot.update?.line ?? "Updated.")] + published)
            }
            return stamped(published)
        case .battery(let reading):
            return stamped(receiveBattery(reading, at: now))
        case .hangup:
            let keeper = keeper
            return [.offLoop { keeper.reload() }]
        case .published(let reply):
            // An off-loop job runs after every state published before it (SessionLoop+Actions).
            return [.offLoop { reply() }]
        case .request(let action, let reply):
            let (actions, answer) = decide(action, reply: reply, at: now)
            guard let answer else { return stamped(actions) }
            return stamped(actions + [.offLoop { reply(answer) }])
        }
    }

    /// Every state the daemon publishes names the pairing request shown and the last completed
    /// session, a session's states too: a session that has just completed names itself (the runner's
    /// state carries it from its outcome), every other state the snapshot's newest from the store
    /// (refreshed after each session's finish record).
    func stamped(_ actions: [LoopAction]) -> [LoopAction] {
        actions.map { action in
            if case .vibrate(let vibration) = action { motorQuietAt = max(motorQuietAt, vibration.end) }
            guard case .state(var state) = action else {
                if case .sessionFinished(let record) = action { countCompleted(record) }
                return tagged(action)
            }
            state.pairingRequest = pairings.current?.requester
            if let finished = state.lastSession, let runner, runner.engine.outcome?.status == .completed {
                justCompleted = (runner.sessionID, finished)
            }
            // Which session `last_session` names: the runner's own once it completed, else the newest.
            let lastID = state.lastSession != nil ? runner?.sessionID : lastCompletedID
            state.lastSession = shown(state.lastSession ?? lastCompleted, tag: studyTag(ofSession: lastID))
            state.glanceablePrivacy = snapshot.glanceablePrivacy
            state.battery = battery.status(thresholds: snapshot.batteryThresholds)
            state.study = studyLine()
            (state.today, state.reminder) = todayAndReminder()
            state.update = snapshot.update
            return .state(state)
        }
    }

    /// What the device shows now: the session's state, or the idle menu's.
    func currentState() -> DeviceState {
        if let runner { return runner.state }
        if case .browsing(let index, _)? = menu?.state, let menu { return idleState(offering: menu.presets[index]) }
        return idleState(offering: nil)
    }
}
