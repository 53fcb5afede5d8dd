import ChronoCore
import Foundation

/// The device daemon (`chronoception run`, SPEC §7): between sessions the one-button idle menu — a tap
/// starts the last session configuration, a long press offers the presets in frecency order, each
/// announced by its own H(I), and a tap picks one — and sessions follow one another until the daemon
/// is stopped.
///
/// The library is read between sessions only. Its view may lag the session that just ended (records
/// are written off the loop), so the daemon itself remembers the configuration it last ran and makes
/// sure that interval is among the presets.
public final class DeviceDaemonController: LoopController {
    /// Decides, just before a session starts, whether Fear's sound is audible (Fear sessions only).
    public typealias SoundCheck = () -> SoundStatus

    private let library: DeviceLibrary
    private let board: String
    private let pressHint: String
    private let soundStatus: SoundCheck
    private let fearAllowed: Bool
    private var menu: IdleMenu?
    private var runner: SessionRunner?
    private var lastRun: SessionConfiguration?
    private var stopped = false

    /// - Parameters:
    ///   - fearAllowed: Fear Mode was opted into; otherwise a Fear configuration runs as Challenge.
    ///   - soundStatus: asked on the loop thread before a Fear session; keep it cheap (a cached value).
    public init(library: DeviceLibrary, board: String, pressHint: String, fearAllowed: Bool,
                soundStatus: @escaping SoundCheck) {
        self.library = library
        self.board = board
        self.pressHint = pressHint
        self.fearAllowed = fearAllowed
        self.soundStatus = soundStatus
    }

    public func start(at now: MonotonicInstant) -> [LoopAction] {
        enterIdle(at: now, announce: true)
    }

    public var nextDeadline: MonotonicInstant? {
        guard !stopped else { return nil }
        return runner?.nextDeadline ?? menu?.nextDeadline
    }

    public func handle(_ event: SessionEvent) -> [LoopAction] {
        guard !stopped else { return [] }
        if let runner {
            var actions = runner.handle(event)
            if runner.isOver { actions += enterIdle(at: event.instant, announce: false) }
            return actions
        }
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
                actions += startSession(configuration, at: at)
            }
        }
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
        var state = idleState(offering: nil)
        state.state = "Stopped"
        actions.append(.state(state))
        return actions
    }

    public var isFinished: Bool { stopped }

    private func startSession(_ requested: SessionConfiguration, at now: MonotonicInstant) -> [LoopAction] {
        var configuration = requested
        var actions: [LoopAction] = []
        if configuration.mode == .fear && !fearAllowed {
            configuration.mode = .challenge
            actions.append(.console("Fear Mode is not opted into: running Challenge instead (start the daemon with --i-understand-fear-mode)."))
        }
        let sound = configuration.mode == .fear ? soundStatus() : .inaudible(reason: "not a Fear session")
        let runner = SessionRunner(
            configuration: configuration, startedAt: now, anchor: MonotonicClock.wallClockAnchor(),
            sessionID: UUID().uuidString,
            context: SessionContext(board: board, pressHint: pressHint, soundAudibility: sound,
                                    healthStatus: library.healthStatus()))
        self.runner = runner
        lastRun = configuration
        menu = nil
        return actions + runner.begin()
    }

    private func enterIdle(at now: MonotonicInstant, announce: Bool) -> [LoopAction] {
        runner = nil
        let inputs = library.idleMenuInputs(nowUnixSeconds: MonotonicClock.wallClockAnchor().unixNanoseconds / 1_000_000_000)
        var last = lastRun ?? inputs.lastConfiguration
        var presets = inputs.presets
        var patterns = inputs.patterns
        if let lastRun, !presets.contains(lastRun.interval) { presets.insert(lastRun.interval, at: 0) }
        patterns.assign(ranked: presets)
        if let pattern = patterns.pattern(for: last.interval) { last.intervalPattern = pattern }
        menu = IdleMenu(lastConfiguration: last, presets: presets, patterns: patterns)
        var actions: [LoopAction] = []
        let what = "\(last.mode.rawValue) \(last.interval) ×\(last.plannedCount)"
        actions.append(.console(announce
            ? "Ready. Tap (\(pressHint)) to start \(what); hold to browse presets. Stop with Ctrl-C or SIGTERM."
            : "Idle. Tap to start \(what) again; hold to browse presets."))
        actions.append(.state(idleState(offering: nil)))
        return actions
    }

    private func idleState(offering preset: TrainingInterval?) -> RuntimeState {
        var state = RuntimeState(state: preset == nil ? "Idle" : "Configuring", board: board, health: library.healthStatus())
        if let configuration = menu?.lastConfiguration {
            state.mode = configuration.mode
            state.interval = configuration.interval
        }
        state.offeredPreset = preset
        return state
    }
}
