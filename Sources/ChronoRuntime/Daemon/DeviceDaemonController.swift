import ChronoCore
import Foundation

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

    private let keeper: SnapshotKeeper
    private let board: String
    private let pressHint: String
    private let soundStatus: SoundCheck
    private var snapshot: DeviceSnapshot
    private var menu: IdleMenu?
    private var runner: SessionRunner?
    private var lastRun: (sessionID: String, configuration: SessionConfiguration)?
    /// The session this daemon completed last, as its states named it (see `lastCompleted`).
    private var justCompleted: (sessionID: String, lastSession: DeviceState.LastSession)?
    private var pairings = PairingQueue()
    private var pairingReplies: [Int: @Sendable (DeviceReply) -> Void] = [:]
    /// The shown request whose cue has played, and when (nil: none shown, or not announced in idle yet).
    private var announcedPairing: (id: Int, at: MonotonicInstant)?
    /// A new snapshot arrived while the menu was in use; rebuild it when it is idle again.
    private var menuOutdated = false
    private var stopped = false

    /// - Parameters:
    ///   - keeper: the snapshots (its first one is ready before the loop starts).
    ///   - soundStatus: asked on the loop thread before a Fear session; keep it cheap (a cached value).
    public init(keeper: SnapshotKeeper, board: String, pressHint: String, soundStatus: @escaping SoundCheck) {
        self.keeper = keeper
        self.board = board
        self.pressHint = pressHint
        self.soundStatus = soundStatus
        snapshot = keeper.latest
    }

    public func start(at now: MonotonicInstant) -> [LoopAction] {
        // Stamped like every later state: the first file already names the last session and withholds
        // its score when glanceable-privacy is on.
        stamped(enterIdle(at: now, announce: true))
    }

    public var nextDeadline: MonotonicInstant? {
        guard !stopped else { return nil }
        let own = runner != nil ? runner?.nextDeadline : menu?.nextDeadline
        return [own, pairings.nextDeadline].compactMap { $0 }.min()
    }

    public func handle(_ event: SessionEvent) -> [LoopAction] {
        guard !stopped else { return [] }
        // A request whose window has passed is answered first, at its own instant's event.
        var actions = expirePairings(at: event.instant)
        if let runner {
            actions += runner.handle(event)
            if runner.isOver { actions += enterIdle(at: event.instant, announce: false) }
            return stamped(actions)
        }
        guard var menu else { return stamped(actions) }
        let effects = menu.handle(event)
        self.menu = menu
        for effect in effects {
            switch effect {
            case .motor(let pattern, let label, let at):
                actions.append(.vibrate(PlannedVibration(pattern: pattern, label: label, due: at)))
            case .presetOffered(let interval, _):
                actions.append(.console("Preset \(interval): tap to start it, hold for the next."))
                actions.append(.state(idleState(offering: interval)))
            case .backToIdle:
                actions.append(.console("Idle."))
                actions.append(.state(idleState(offering: nil)))
            case .startSession(let configuration, let at):
                // The menu may predate the latest snapshot (a press was under way when it came): the
                // session still gets the current settings.
                actions += startSession(snapshot.refreshed(configuration), at: at)
            case .approvePairing(let at):
                actions += approveShownPairing(at: at)
            }
        }
        if runner == nil, menuOutdated { actions += rebuildMenuIfFree(at: event.instant) }
        return stamped(actions)
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
        switch message {
        case .snapshotChanged:
            snapshot = keeper.latest
            menuOutdated = true
            // During a session the state is published again stamped with the new snapshot (the loop drops
            // it when nothing changed), so turning glanceable-privacy on hides the feedback at once.
            return stamped(runner == nil ? rebuildMenuIfFree(at: now) : [.state(currentState())])
        case .hangup:
            let keeper = keeper
            return [.offLoop { keeper.reload() }]
        case .request(let action, let reply):
            let (actions, answer) = decide(action, reply: reply, at: now)
            guard let answer else { return stamped(actions) }
            return stamped(actions + [.offLoop { reply(answer) }])
        }
    }

    // MARK: Requests

    /// The loop's answer to an action (nil: answered later — a pairing request, by a long press or its expiry).
    private func decide(_ action: DeviceAction, reply: @escaping @Sendable (DeviceReply) -> Void,
                        at now: MonotonicInstant) -> ([LoopAction], DeviceReply?) {
        if stopped { return ([], .refused(.stopping)) }
        switch action {
        case .start(let request):
            // A waiting pairing request never blocks a start: it waits through the session.
            if let refusal = sessionRefusal(.start) { return ([], .refused(refusal)) }
            let configuration: SessionConfiguration
            do {
                configuration = try requestedConfiguration(request)
            } catch {
                return ([], .refused(.invalidConfiguration(error.description)))
            }
            // Fear asked for by name without the opt-in is refused; what a tap would start (the last
            // configuration, a preset) runs as the tap runs it, as Challenge (`runnable`).
            if case .explicit = request, !fearPermission.allowsByName(configuration.mode) { return ([], .refused(.fearNotOptedIn)) }
            let actions = startSession(configuration, at: now)
            guard let runner else { return (actions, .refused(.stopping)) }
            return (actions, .started(sessionID: runner.sessionID, configuration: runner.configuration))
        case .endPassive:
            if let refusal = sessionRefusal(.endPassive) { return ([], .refused(refusal)) }
            guard let runner else { return ([], .refused(.nothingRunning)) }
            var actions = runner.handle(.endRequested(at: now))
            let status = runner.engine.outcome?.status ?? .completed
            if runner.isOver { actions += enterIdle(at: now, announce: false) }
            return (actions, .ended(sessionID: runner.sessionID, status: status))
        case .discard:
            if let refusal = sessionRefusal(.discard) { return ([], .refused(refusal)) }
            guard let runner else { return ([], .refused(.nothingRunning)) }
            var actions = runner.discard(at: now)
            if runner.isOver { actions += enterIdle(at: now, announce: false) }
            return (actions, .discarded(sessionID: runner.sessionID))
        case .approvePairing(let requester, let window):
            guard window > .zero else { return ([], .refused(.invalidConfiguration("The approval window must be longer than 0 s."))) }
            guard case .queued(let id, let shown) = pairings.add(requester, window: window, at: now) else {
                return ([], .refused(.pairingQueueFull))
            }
            pairingReplies[id] = reply
            var actions: [LoopAction] = []
            if shown {
                actions += showPairing(at: now)
            } else {
                actions.append(.console("Pairing request from \(Self.describe(requester)) waits behind \(pairings.entries.count - 1) other(s); it is shown when they are answered or expire."))
            }
            actions.append(.state(currentState()))
            return (actions, nil)
        }
    }

    /// Why a start, end or discard does not apply to the session now (nil: it does), as the core's
    /// `SessionRequestRule` decides: in the summary window after a session ended nothing runs, so
    /// nothing is ended or discarded, and a start waits for the summary to end.
    private func sessionRefusal(_ request: SessionRequestRule.Request) -> DeviceRefusal? {
        let session = runner.map { (mode: $0.configuration.mode, phase: $0.engine.phase) }
        let id = runner?.sessionID ?? ""
        switch SessionRequestRule.decide(request, session: session) {
        case .proceed: return nil
        case .sessionRunning: return .sessionRunning(sessionID: id)
        case .summaryShowing: return .sessionJustEnded(sessionID: id)
        case .alreadySaved:
            return .sessionAlreadySaved(sessionID: id, status: runner?.engine.outcome?.status ?? .completed, discard: request == .discard)
        case .nothingRunning: return .nothingRunning
        case .notPassive(let mode): return .notPassive(mode)
        }
    }

    private func requestedConfiguration(_ request: StartRequest) throws(ConfigurationError) -> SessionConfiguration {
        switch request {
        case .preset(let interval):
            let last = nextConfiguration()
            return try snapshot.configuration(mode: last.mode, interval: interval, count: last.plannedCount)
        case .explicit(let mode, let interval, let count):
            return try snapshot.configuration(mode: mode, interval: interval, count: count)
        case .lastConfiguration:
            return nextConfiguration()
        }
    }

    // MARK: Pairing

    /// Names the shown request (console and state) and, in idle, plays its cue: from then on a long
    /// press begun in idle approves it. During a session it is only named; the cue waits for idle.
    private func showPairing(at now: MonotonicInstant) -> [LoopAction] {
        guard let entry = pairings.current, let expires = entry.expiresAt else {
            announcedPairing = nil
            menu?.pairingWithdrawn()
            return []
        }
        let left = DurationText.format(magnitudeOf: expires - now)
        guard runner == nil, menu != nil else {
            return [.console("Pairing request from \(Self.describe(entry.requester)): it waits until this session ends (never approved during one); it expires in \(left).")]
        }
        announcedPairing = (entry.id, now)
        menu?.pairingAnnounced(at: now)
        let cue = HapticCue.pairingRequest
        let browsing = menu?.state != .idle
        return [
            .vibrate(PlannedVibration(pattern: cue.pattern, label: .cue(cue), due: now)),
            .console("Pairing request from \(Self.describe(entry.requester)): to approve, hold the button (\(pressHint)) for \(Self.holdText(snapshot.defaults.gestures.longPress))\(browsing ? " once the menu is back in idle" : "") within \(left) (while it waits, a long press in idle approves instead of browsing presets; a tap still starts a session). Do nothing to refuse."),
        ]
    }

    /// The long press in idle: approves the request shown, then shows the next (if any).
    private func approveShownPairing(at now: MonotonicInstant) -> [LoopAction] {
        announcedPairing = nil
        guard let entry = pairings.approveCurrent(at: now) else { return [] }
        var actions: [LoopAction] = [.console("Pairing approved: \(Self.describe(entry.requester)).")]
        if let reply = pairingReplies.removeValue(forKey: entry.id) { actions.append(.offLoop { reply(.pairingApproved) }) }
        actions += showPairing(at: now)
        actions.append(.state(currentState()))
        return actions
    }

    /// Answers the requests whose window has passed at `now` and shows the next one.
    private func expirePairings(at now: MonotonicInstant) -> [LoopAction] {
        let expired = pairings.expire(at: now)
        guard !expired.isEmpty else { return [] }
        var actions: [LoopAction] = []
        for entry in expired {
            actions.append(.console("Pairing request from \(Self.describe(entry.requester)) expired unapproved."))
            if let reply = pairingReplies.removeValue(forKey: entry.id) {
                actions.append(.offLoop { reply(.refused(.pairingRefused("no long press within the time given"))) })
            }
        }
        announcedPairing = nil
        actions += showPairing(at: now)
        actions.append(.state(currentState()))
        return actions
    }

    /// The long-press threshold in seconds with its fraction (`1.5s`): the whole-second display rule
    /// would round it to a hold that is not long enough.
    static func holdText(_ span: TimeSpan) -> String {
        let tenths = (span.nanoseconds + 99_999_999) / 100_000_000
        return tenths % 10 == 0 ? "\(tenths / 10)s" : "\(tenths / 10).\(tenths % 10)s"
    }

    /// `"NAME" at ADDRESS`, as every line about a request says it. Both came from the network: shown
    /// as text (a bidirectional override in a name must not reorder the line the person reads).
    static func describe(_ requester: PairingRequester) -> String {
        "\"\(TerminalSafeText.sanitized(requester.name, keepNewlines: false))\" at \(TerminalSafeText.sanitized(requester.address, keepNewlines: false))"
    }

    /// Every state the daemon publishes names the pairing request shown and the last completed
    /// session, a session's states too: a session that has just completed names itself (the runner's
    /// state carries it from its outcome), every other state the snapshot's newest from the store
    /// (refreshed after each session's finish record).
    private func stamped(_ actions: [LoopAction]) -> [LoopAction] {
        actions.map { action in
            guard case .state(var state) = action else { return action }
            state.pairingRequest = pairings.current?.requester
            if let finished = state.lastSession, let runner, runner.engine.outcome?.status == .completed {
                justCompleted = (runner.sessionID, finished)
            }
            state.lastSession = state.lastSession ?? lastCompleted
            state.glanceablePrivacy = snapshot.glanceablePrivacy
            return .state(state)
        }
    }

    /// What the device shows now: the session's state, or the idle menu's.
    private func currentState() -> DeviceState {
        if let runner { return runner.state }
        if case .browsing(let index, _)? = menu?.state, let menu { return idleState(offering: menu.presets[index]) }
        return idleState(offering: nil)
    }

    // MARK: Sessions and the idle menu

    private func startSession(_ requested: SessionConfiguration, at now: MonotonicInstant) -> [LoopAction] {
        let configuration = runnable(requested)
        var actions: [LoopAction] = []
        if configuration.mode != requested.mode {
            actions.append(.console("Fear Mode is not opted into: running Challenge instead (`chronoception settings set fear-mode on`, or start the daemon with --i-understand-fear-mode)."))
        }
        let sound = configuration.mode == .fear ? soundStatus() : .inaudible(reason: "not a Fear session")
        let runner = SessionRunner(
            configuration: configuration, startedAt: now, anchor: MonotonicClock.wallClockAnchor(),
            sessionID: UUID().uuidString,
            context: SessionContext(board: board, pressHint: pressHint, soundAudibility: sound,
                                    healthStatus: snapshot.healthStatus))
        self.runner = runner
        lastRun = (runner.sessionID, configuration)
        menu = nil
        // Announced again when the device is back in idle: the person may have forgotten it.
        announcedPairing = nil
        let keeper = keeper
        // After the start record (posted by `begin()`), so the refreshed snapshot counts this use.
        return actions + runner.begin() + [.offLoop { keeper.refresh() }]
    }

    private func enterIdle(at now: MonotonicInstant, announce: Bool) -> [LoopAction] {
        var actions: [LoopAction] = []
        if runner != nil {
            let keeper = keeper
            // After the finish record: the next snapshot knows this session and its health delivery.
            actions.append(.offLoop { keeper.refresh() })
        }
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
    private func rebuildMenuIfFree(at now: MonotonicInstant) -> [LoopAction] {
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
    private var lastCompleted: DeviceState.LastSession? {
        if let justCompleted, justCompleted.sessionID == lastRun?.sessionID, justCompleted.sessionID != snapshot.lastCompletedID {
            return justCompleted.lastSession
        }
        return snapshot.lastCompleted
    }

    /// What an idle tap starts: the snapshot's choice, or — while the snapshot does not yet know the
    /// session this daemon ran last — that session's configuration with the current settings.
    private func nextConfiguration() -> SessionConfiguration {
        if let lastRun, lastRun.sessionID != snapshot.lastSessionID {
            return snapshot.refreshed(lastRun.configuration)
        }
        return snapshot.nextConfiguration
    }

    /// What really runs for `configuration` that no one named now (a tap, a preset, the last session):
    /// the mode `FearPermission` runs it as (a Fear one without the opt-in runs as Challenge).
    private func runnable(_ configuration: SessionConfiguration) -> SessionConfiguration {
        var runnable = configuration
        runnable.mode = fearPermission.mode(fromDefaults: configuration.mode)
        return runnable
    }

    /// The snapshot's answer of the Fear rule (decided off the loop from the flag and the settings).
    private var fearPermission: FearPermission { FearPermission(allowed: snapshot.fearAllowed) }

    private func makeMenu() -> IdleMenu {
        let last = nextConfiguration()
        var presets = snapshot.presets
        if !presets.contains(last.interval) { presets.insert(last.interval, at: 0) }
        var patterns = snapshot.patterns
        patterns.assign(ranked: presets)
        var menu = IdleMenu(lastConfiguration: last, presets: presets, patterns: patterns)
        if let announcedPairing { menu.pairingAnnounced(at: announcedPairing.at) }
        return menu
    }

    private func describe(_ configuration: SessionConfiguration) -> String {
        "\(configuration.mode.rawValue) \(configuration.interval) ×\(configuration.plannedCount)"
    }

    private func idleState(offering preset: TrainingInterval?) -> DeviceState {
        var state = DeviceState(state: preset == nil ? .idle : .configuring,
                                 board: board, health: snapshot.healthStatus)
        if let configuration = menu?.lastConfiguration {
            state.mode = configuration.mode
            state.interval = configuration.interval
        }
        state.offeredPreset = preset
        // The one answer to "what does a tap start now": the configuration `.start(.lastConfiguration)` starts.
        state.nextSession = DeviceState.NextSession(runnable(nextConfiguration()))
        return state
    }
}
