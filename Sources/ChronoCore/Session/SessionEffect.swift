/// What the engine asks the outside world to do, or tells it happened. The runtime executes these;
/// `replay` and `simulate` record them as a timeline.
public enum SessionEffect: Hashable, Sendable {
    /// Play a vibration starting at an instant (a fixed cue or the interval pattern H(I)).
    case motor(HapticPattern, label: VibrationLabel, at: MonotonicInstant)
    /// Play Fear Mode's aversive sound now.
    case aversiveSound(attempt: Int, at: MonotonicInstant)
    /// An attempt started; its start mark is the button's press edge (or the auto-start instant).
    case attemptStarted(attempt: Int, startMark: MonotonicInstant, at: MonotonicInstant)
    /// An attempt was measured: feedback to show now.
    case attemptMeasured(AttemptMeasurement, at: MonotonicInstant)
    /// An attempt was measured in a session whose feedback is withheld: the press is confirmed, and
    /// nothing about the error may be shown (the measurement is in the outcome, not here).
    case attemptRecorded(attempt: Int, tapMark: MonotonicInstant, at: MonotonicInstant)
    /// A Passive boundary was reached.
    case boundaryReached(PassiveBoundary)
    /// A press that did nothing, and why (shown in the timeline so that nothing is silently dropped).
    case pressIgnored(pressedAt: MonotonicInstant, reason: String, at: MonotonicInstant)
    /// A long press asked to discard; a second long press before `until` discards.
    case abortRequested(until: MonotonicInstant, at: MonotonicInstant)
    /// The discard request was answered with a tap, or ran out.
    case abortWithdrawn(reason: String, at: MonotonicInstant)
    /// Something the user must be told, such as sound being unavailable.
    case notice(String, at: MonotonicInstant)
    /// The session moved to another phase.
    case phaseChanged(SessionPhase, at: MonotonicInstant)
    /// The session is over: completed, aborted or interrupted.
    case finished(SessionOutcome)
}

/// Where a session is (SPEC §2 states; Idle and Configuring belong to the device, see `IdleMenu`).
public enum SessionPhase: Hashable, Sendable {
    /// Reproduction: the device presents the interval (a lead-in, then a mark at its start and one
    /// at `endDue`); presses are ignored and counted until the end mark.
    case presenting(attempt: Int, endDue: MonotonicInstant)
    case waitingForStart(attempt: Int)
    case attemptRunning(attempt: Int, startMark: MonotonicInstant)
    case feedbackFlash(attempt: Int, until: MonotonicInstant)
    case passiveRunning(boundariesDone: Int, nextBoundary: MonotonicInstant)
    case sessionSummary(until: MonotonicInstant)
    case completed
    case aborted
    case interrupted

    /// The state name used in the state file and logs.
    public var name: String {
        switch self {
        case .presenting: return "Presenting"
        case .waitingForStart: return "WaitingForStart"
        case .attemptRunning: return "AttemptRunning"
        case .feedbackFlash: return "FeedbackFlash"
        case .passiveRunning: return "PassiveRunning"
        case .sessionSummary: return "SessionSummary"
        case .completed: return "Completed"
        case .aborted: return "Aborted"
        case .interrupted: return "Interrupted"
        }
    }
}

/// One Passive boundary: boundary k is due at `start + k × interval`.
public struct PassiveBoundary: Hashable, Sendable {
    public var index: Int
    public var due: MonotonicInstant

    public init(index: Int, due: MonotonicInstant) {
        self.index = index
        self.due = due
    }
}

/// Something that happens to a session, with the instant it happened.
public enum SessionEvent: Hashable, Sendable {
    /// A raw button edge with its own (kernel) timestamp.
    case button(RawButtonEdge)
    /// The deadline the engine asked for has been reached; `now` is that instant.
    case deadline(now: MonotonicInstant)
    /// Sound stopped being audible (device gone, muted).
    case soundLost(at: MonotonicInstant)
    /// Sound is audible again (the session's `fear_sound_effective` stays false).
    case soundRestored(at: MonotonicInstant)
    /// The user ends the session from outside the button (Passive: same as a long press; Challenge
    /// and Fear: the session stops unfinished and is interrupted).
    case endRequested(at: MonotonicInstant)

    public var instant: MonotonicInstant {
        switch self {
        case .button(let edge): return edge.at
        case .deadline(let now): return now
        case .soundLost(let at), .soundRestored(let at), .endRequested(let at): return at
        }
    }
}
