import ChronoCore
import Foundation

/// Runs one session's pure `SessionEngine` inside the loop: feeds it events, turns its effects into
/// loop actions (vibrations, the aversive sound, console lines, the state file, the records), and
/// predicts the vibrations of its next deadline so the loop can start them early.
///
/// Used on the loop thread only; every method returns quickly (no I/O).
final class SessionRunner {
    let sessionID: String
    let anchor: WallClockAnchor
    private(set) var engine: SessionEngine
    private let context: SessionContext
    private var lastFeedback: String?
    private var fearSound: String?

    init(configuration: SessionConfiguration, startedAt: MonotonicInstant, anchor: WallClockAnchor,
         sessionID: String, context: SessionContext) {
        self.sessionID = sessionID
        self.anchor = anchor
        self.context = context
        engine = SessionEngine(configuration: configuration, startedAt: startedAt,
                               soundAudible: context.soundAudibility.isAudible)
        if configuration.mode == .fear { fearSound = context.soundAudibility.text }
    }

    var configuration: SessionConfiguration { engine.configuration }

    /// Whether the session has ended and its summary time is over (or it was aborted/interrupted).
    var isOver: Bool {
        switch engine.phase {
        case .completed, .aborted, .interrupted: return true
        default: return false
        }
    }

    var nextDeadline: MonotonicInstant? { engine.nextDeadline }

    func begin() -> [LoopAction] {
        var actions: [LoopAction] = [.sessionStarted(SessionStartRecord(
            sessionID: sessionID, configuration: configuration, anchor: anchor, board: context.board,
            soundAudible: context.soundAudibility.isAudible))]
        let interval = configuration.interval
        switch configuration.mode {
        case .passive:
            actions.append(.console("Passive: \(configuration.plannedCount) × \(interval). The motor marks each boundary; hold to end."))
        case .reproduction:
            // The interval is not named: the person learns it from the two marks, not from a number.
            let plural = configuration.plannedCount == 1 ? "" : "s"
            actions.append(.console("Reproduction: \(configuration.plannedCount) attempt\(plural). Feel the interval between two marks, then press to start reproducing it and press again when it has passed. Hold to discard."))
        case .challenge, .fear:
            actions.append(.console("\(configuration.mode.title): \(configuration.plannedCount) attempt\(configuration.plannedCount == 1 ? "" : "s") of \(interval). Hold to discard."))
            if configuration.mode == .fear, case .inaudible(let reason) = context.soundAudibility {
                actions.append(.console("Sound check: \(reason)"))
            }
        }
        return actions + translate(engine.begin())
    }

    func handle(_ event: SessionEvent) -> [LoopAction] {
        if case .soundLost = event, configuration.mode == .fear { fearSound = "lost" }
        return translate(engine.handle(event))
    }

    func interrupt(at now: MonotonicInstant, reason: String) -> [LoopAction] {
        translate(engine.interrupt(at: now, reason: reason))
    }

    /// Ended by the device before its plan (the battery): `SessionEngine.endEarly`.
    func endEarly(at now: MonotonicInstant, reason: String) -> [LoopAction] {
        translate(engine.endEarly(at: now, reason: reason))
    }

    /// Discarded from outside the button (a request): aborted, never logged.
    func discard(at now: MonotonicInstant) -> [LoopAction] {
        translate(engine.discard(at: now, reason: "Discarded on request (the companion), not with the button."))
    }

    /// The vibrations the engine will ask for at its next deadline if nothing happens first.
    func predictedVibrations() -> [PlannedVibration] {
        guard let deadline = engine.nextDeadline else { return [] }
        var lookahead = engine  // a value: the real engine is untouched
        return lookahead.handle(.deadline(now: deadline)).compactMap { effect in
            if case .motor(let pattern, let label, let at) = effect {
                return PlannedVibration(pattern: pattern, label: label, due: at)
            }
            return nil
        }
    }

    /// The engine keeps the instant a cue that marks time really began (a Passive boundary, an
    /// auto-started attempt's start cue), matched by the instant it was asked for, never by order.
    func vibrationStarted(_ vibration: PlannedVibration, firedAt: MonotonicInstant) {
        engine.cueBegan(vibration.label, due: vibration.due, at: firedAt)
    }

    /// The state file's view of the session.
    var state: DeviceState {
        var state = DeviceState(state: DeviceState.Name(engine.phase), board: context.board, health: context.healthStatus)
        state.mode = configuration.mode
        state.interval = configuration.interval
        state.sessionID = sessionID
        state.fearSound = fearSound
        state.lastFeedback = lastFeedback
        state.glanceablePrivacy = context.glanceablePrivacy
        state.lastSession = engine.outcome.flatMap { DeviceState.LastSession(finished: $0, anchor: anchor) } ?? context.lastSession
        if configuration.mode.usesAttempts {
            state.attemptCount = configuration.plannedCount
            switch engine.phase {
            case .presenting(let attempt, _), .waitingForStart(let attempt), .attemptRunning(let attempt, _), .feedbackFlash(let attempt, _):
                state.attempt = attempt
            default:
                state.attempt = engine.attempts.count
            }
        } else {
            state.repetitionCount = configuration.plannedCount
            state.repetitionsDone = engine.boundaries.count
            if case .passiveRunning(_, let next) = engine.phase { state.nextBoundary = anchor.wallTime(at: next) }
        }
        return state
    }

    private func translate(_ effects: [SessionEffect]) -> [LoopAction] {
        var actions: [LoopAction] = []
        let count = configuration.plannedCount
        let hint = context.pressHint
        for effect in effects {
            switch effect {
            case .motor(let pattern, let label, let at):
                actions.append(.vibrate(PlannedVibration(pattern: pattern, label: label, due: at)))
            case .aversiveSound:
                actions.append(.playAversiveSound)
                actions.append(.console("Aversive sound."))
            case .attemptStarted(let attempt, _, _) where configuration.mode == .reproduction:
                actions.append(.console("Attempt \(attempt) of \(count): reproducing. \(hint.capitalizedFirst) again when the same time has passed."))
            case .attemptStarted(let attempt, _, _):
                actions.append(.console("Attempt \(attempt) of \(count): started. \(hint.capitalizedFirst) when \(configuration.interval) have passed."))
            case .attemptMeasured(let measurement, _):
                lastFeedback = measurement.feedbackText
                actions.append(.console("Attempt \(measurement.index) of \(count): \(measurement.feedbackText)"))
                actions.append(.event(.feedback(DeviceFeedback(sessionID: sessionID, count: count, measurement: measurement))))
            case .attemptRecorded(let attempt, _, _):
                // Feedback withheld: the press counted, and nothing about the error is said.
                actions.append(.console("Attempt \(attempt) of \(count): recorded."))
            case .boundaryReached(let boundary):
                actions.append(.console("Boundary \(boundary.index) of \(count)."))
            case .pressIgnored(_, let reason, _):
                actions.append(.console("(press ignored: \(reason))"))
            case .abortRequested(let until, let at):
                let window = DurationText.format(magnitudeOf: until - at)
                actions.append(.console("Discard this session? Hold again within \(window) to discard; tap to go on."))
            case .abortWithdrawn(let reason, _):
                actions.append(.console(reason))
            case .notice(let text, _):
                actions.append(.console(text))
            case .phaseChanged(let phase, _):
                if case .presenting(let attempt, _) = phase {
                    actions.append(.console("Attempt \(attempt) of \(count): feel the interval."))
                } else if case .waitingForStart(let attempt) = phase {
                    actions.append(.console(configuration.mode == .reproduction
                        ? "Attempt \(attempt) of \(count): \(hint) to start your reproduction."
                        : "Attempt \(attempt) of \(count): \(hint) to start."))
                }
            case .finished(let outcome):
                actions += SessionSummaryText.lines(for: outcome).map { .console($0) }
                actions.append(.sessionFinished(SessionFinishRecord(
                    sessionID: sessionID, outcome: outcome, anchor: anchor, board: context.board,
                    boundariesFired: Self.reported(engine.boundariesFired))))
                actions.append(.event(.sessionFinished(sessionID: sessionID, status: outcome.status, recorded: !outcome.recordsNothing)))
            }
        }
        actions.append(.state(state))
        return actions
    }
}

extension SessionRunner {
    /// The firings the record keeps: by position from the first boundary, up to the first one not
    /// reported (only the last can be missing: a session stopped as its boundary was being played).
    static func reported(_ fired: [MonotonicInstant?]) -> [MonotonicInstant] {
        Array(fired.prefix { $0 != nil }.compactMap { $0 })
    }
}

extension String {
    /// "press space" → "Press space".
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
