import ChronoCore
import Foundation

/// The device daemon (`chronoception run`, SPEC §7): between sessions the one-button idle menu — a tap
/// starts the last session configuration, a long press offers the presets in frecency order, each
/// announced by its own H(I), and a tap picks one — and sessions follow one another until the daemon
/// is stopped. Control requests (`DaemonRequest`) from other threads start, end or discard sessions and
/// ask the person to approve a pairing with a tap.
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

    /// A pairing approval waiting for the button.
    private struct PairingWait {
        var until: MonotonicInstant
        var gestures: GestureRecognizer
        var reply: @Sendable (DaemonReply) -> Void
    }

    private let keeper: SnapshotKeeper
    private let board: String
    private let pressHint: String
    private let soundStatus: SoundCheck
    private var snapshot: DeviceSnapshot
    private var menu: IdleMenu?
    private var runner: SessionRunner?
    private var lastRun: (sessionID: String, configuration: SessionConfiguration)?
    private var pairing: PairingWait?
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
        enterIdle(at: now, announce: true)
    }

    public var nextDeadline: MonotonicInstant? {
        guard !stopped else { return nil }
        if let runner { return runner.nextDeadline }
        if let pairing { return [pairing.until, pairing.gestures.nextDeadline].compactMap { $0 }.min() }
        return menu?.nextDeadline
    }

    public func handle(_ event: SessionEvent) -> [LoopAction] {
        guard !stopped else { return [] }
        if let runner {
            var actions = runner.handle(event)
            if runner.isOver { actions += enterIdle(at: event.instant, announce: false) }
            return actions
        }
        if pairing != nil { return handlePairing(event) }
        guard var menu else { return [] }
        let effects = menu.handle(event)
        self.menu = menu
        var actions: [LoopAction] = []
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
            }
        }
        if runner == nil, menuOutdated { actions += rebuildMenuIfFree(at: event.instant) }
        return actions
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
        if let pairing {
            self.pairing = nil
            actions.append(.offLoop { pairing.reply(.refused(.stopping)) })
        }
        var state = idleState(offering: nil)
        state.state = .stopped
        actions.append(.state(state))
        return actions
    }

    public var isFinished: Bool { stopped }

    public func receive(_ message: ControllerMessage, at now: MonotonicInstant) -> [LoopAction] {
        switch message {
        case .snapshotChanged:
            snapshot = keeper.latest
            menuOutdated = true
            return runner == nil ? rebuildMenuIfFree(at: now) : []
        case .hangup:
            let keeper = keeper
            return [.offLoop { keeper.reload() }]
        case .request(let request, let reply):
            let (actions, answer) = decide(request, reply: reply, at: now)
            guard let answer else { return actions }
            return actions + [.offLoop { reply(answer) }]
        }
    }

    // MARK: Requests

    /// The loop's answer to a request (nil: answered later, by the button — a pairing approval).
    private func decide(_ request: DaemonRequest, reply: @escaping @Sendable (DaemonReply) -> Void,
                        at now: MonotonicInstant) -> ([LoopAction], DaemonReply?) {
        if stopped { return ([], .refused(.stopping)) }
        switch request {
        case .startLast, .startPreset, .start:
            if let runner { return ([], .refused(.sessionRunning(sessionID: runner.sessionID))) }
            if pairing != nil { return ([], .refused(.pairingInProgress)) }
            let configuration: SessionConfiguration
            do {
                configuration = try requestedConfiguration(request)
            } catch {
                return ([], .refused(.invalidConfiguration(error.description)))
            }
            if configuration.mode == .fear && !snapshot.fearAllowed { return ([], .refused(.fearNotOptedIn)) }
            let actions = startSession(configuration, at: now)
            guard let runner else { return (actions, .refused(.stopping)) }
            return (actions, .started(sessionID: runner.sessionID, configuration: runner.configuration))
        case .endPassive:
            guard let runner else { return ([], .refused(.nothingRunning)) }
            guard runner.configuration.mode == .passive else { return ([], .refused(.notPassive(runner.configuration.mode))) }
            var actions = runner.handle(.endRequested(at: now))
            let status = runner.engine.outcome?.status ?? .completed
            if runner.isOver { actions += enterIdle(at: now, announce: false) }
            return (actions, .ended(sessionID: runner.sessionID, status: status))
        case .discard:
            guard let runner else { return ([], .refused(.nothingRunning)) }
            var actions = runner.discard(at: now)
            if runner.isOver { actions += enterIdle(at: now, announce: false) }
            return (actions, .discarded(sessionID: runner.sessionID))
        case .approvePairing(let within):
            if let runner { return ([], .refused(.sessionRunning(sessionID: runner.sessionID))) }
            if pairing != nil { return ([], .refused(.pairingInProgress)) }
            guard within > .zero else { return ([], .refused(.invalidConfiguration("The approval window must be longer than 0 s."))) }
            // Browsing presets is left: the next press answers the pairing, not the menu.
            menu = makeMenu()
            pairing = PairingWait(until: now + within, gestures: GestureRecognizer(settings: snapshot.defaults.gestures), reply: reply)
            let cue = HapticCue.abortConfirm
            return ([
                .vibrate(PlannedVibration(pattern: cue.pattern, label: VibrationLabel("pairing \(cue.name)"), due: now)),
                .console("Pairing requested: tap (\(pressHint)) within \(DurationText.format(magnitudeOf: within)) to approve; hold to refuse."),
                .state(idleState(offering: nil)),
            ], nil)
        }
    }

    private func requestedConfiguration(_ request: DaemonRequest) throws(ConfigurationError) -> SessionConfiguration {
        switch request {
        case .startPreset(let interval):
            let last = nextConfiguration()
            return try snapshot.configuration(mode: last.mode, interval: interval, count: last.plannedCount)
        case .start(let mode, let interval, let count):
            return try snapshot.configuration(mode: mode, interval: interval, count: count)
        default:
            return nextConfiguration()
        }
    }

    private func handlePairing(_ event: SessionEvent) -> [LoopAction] {
        guard var wait = pairing else { return [] }
        var gestures = wait.gestures.advance(to: event.instant)
        if case .button(let edge) = event { gestures += wait.gestures.handle(edge) }
        pairing = wait
        let answer: DaemonReply?
        switch gestures.first {
        case .tap?: answer = .pairingApproved
        case .longPress?: answer = .refused(.pairingRefused("the button was held"))
        case nil:
            answer = event.instant >= wait.until && !wait.gestures.isPressed
                ? .refused(.pairingRefused("no tap within the time given")) : nil
        }
        guard let answer else { return [] }
        pairing = nil
        let reply = wait.reply
        let line = answer == .pairingApproved ? "Pairing approved." : "Pairing refused."
        return [.offLoop { reply(answer) }, .console(line)] + rebuildMenuIfFree(at: event.instant)
    }

    // MARK: Sessions and the idle menu

    private func startSession(_ requested: SessionConfiguration, at now: MonotonicInstant) -> [LoopAction] {
        var configuration = requested
        var actions: [LoopAction] = []
        if configuration.mode == .fear && !snapshot.fearAllowed {
            configuration.mode = .challenge
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
            : "Idle. Tap to start \(what) again; hold to browse presets."))
        actions.append(.state(idleState(offering: nil)))
        return actions
    }

    /// Rebuilds the menu from the latest snapshot unless it is in use (browsing, a press held, a pairing).
    private func rebuildMenuIfFree(at now: MonotonicInstant) -> [LoopAction] {
        guard menuOutdated, runner == nil, pairing == nil, !stopped else { return [] }
        if let menu, menu.state != .idle || menu.isPressed { return [] }
        let before = menu.map { describe($0.lastConfiguration) }
        menu = makeMenu()
        menuOutdated = false
        var actions: [LoopAction] = [.state(idleState(offering: nil))]
        let after = describe(menu!.lastConfiguration)
        if before != after { actions.insert(.console("Settings changed. Tap to start \(after); hold to browse presets."), at: 0) }
        return actions
    }

    /// What an idle tap starts: the snapshot's choice, or — while the snapshot does not yet know the
    /// session this daemon ran last — that session's configuration with the current settings.
    private func nextConfiguration() -> SessionConfiguration {
        if let lastRun, lastRun.sessionID != snapshot.lastSessionID {
            return snapshot.refreshed(lastRun.configuration)
        }
        return snapshot.nextConfiguration
    }

    private func makeMenu() -> IdleMenu {
        let last = nextConfiguration()
        var presets = snapshot.presets
        if !presets.contains(last.interval) { presets.insert(last.interval, at: 0) }
        var patterns = snapshot.patterns
        patterns.assign(ranked: presets)
        return IdleMenu(lastConfiguration: last, presets: presets, patterns: patterns)
    }

    private func describe(_ configuration: SessionConfiguration) -> String {
        "\(configuration.mode.rawValue) \(configuration.interval) ×\(configuration.plannedCount)"
    }

    private func idleState(offering preset: TrainingInterval?) -> RuntimeState {
        var state = RuntimeState(state: preset == nil ? .idle : .configuring,
                                 board: board, health: snapshot.healthStatus)
        if let configuration = menu?.lastConfiguration {
            state.mode = configuration.mode
            state.interval = configuration.interval
        }
        state.offeredPreset = preset
        return state
    }
}
