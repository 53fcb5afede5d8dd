/// How a session ended.
public enum SessionStatus: String, Hashable, Sendable {
    /// Reached its summary (Passive: all repetitions, or ended by the user after a boundary).
    case completed
    /// Discarded by the user, or a Passive session ended before its first boundary. Never logged.
    case aborted
    /// Stopped without finishing (program stopped, power lost). Never logged.
    case interrupted
}

/// The complete, immutable record of a finished session: what the store keeps and what the health
/// record is built from.
public struct SessionOutcome: Hashable, Sendable {
    public var status: SessionStatus
    public var configuration: SessionConfiguration
    /// When the session began (Passive boundaries count from here).
    public var startedAt: MonotonicInstant
    /// When it ended: Challenge/Fear the last tap mark (the summary is reached at the last tap);
    /// Passive the last boundary or the user's end; otherwise the abort or interruption instant.
    public var endedAt: MonotonicInstant
    public var attempts: [AttemptMeasurement]
    public var boundaries: [PassiveBoundary]
    /// False when sound could not be heard at the start of a Fear session or was lost during it.
    public var fearSoundEffective: Bool
    /// Why the session ended as it did, in words: an aborted or interrupted session's cause, or a
    /// completed one's early end (the battery). Every form carries it (the wire form, the CSV, the file).
    public var reason: String?
    /// The timing flag: the largest lateness of a cue that marks time (a Passive boundary, an
    /// auto-started attempt's start cue) past the instant it was asked for, when beyond
    /// `CueTiming.tolerance`; nil
    /// when every such cue the loop reported began within it. Set by the engine from the instants the loop
    /// reports (`SessionEngine.cueBegan`), so a stall is recorded rather than silently absorbed.
    public var timingLateness: TimeSpan?
    /// Reproduction: presses made while an interval was being presented (ignored, and counted here).
    public var pressesIgnoredDuringPresentation: Int
    /// The session ended while it still waited for the person's first press (Challenge, Fear: the first
    /// attempt's start; Reproduction: its first presentation or the press after it). Set by the engine;
    /// a stored, synced or imported session never has it.
    public var endedBeforeFirstPress: Bool

    public init(
        status: SessionStatus, configuration: SessionConfiguration, startedAt: MonotonicInstant,
        endedAt: MonotonicInstant, attempts: [AttemptMeasurement], boundaries: [PassiveBoundary],
        fearSoundEffective: Bool, reason: String?, timingLateness: TimeSpan? = nil,
        pressesIgnoredDuringPresentation: Int = 0, endedBeforeFirstPress: Bool = false
    ) {
        self.status = status
        self.configuration = configuration
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.attempts = attempts
        self.boundaries = boundaries
        self.fearSoundEffective = fearSoundEffective
        self.reason = reason
        self.timingLateness = timingLateness
        self.pressesIgnoredDuringPresentation = pressesIgnoredDuringPresentation
        self.endedBeforeFirstPress = endedBeforeFirstPress
    }

    public var mode: SessionMode { configuration.mode }
    public var metrics: SessionMetrics { SessionMetrics(attempts: attempts) }

    /// Where the session's health record starts: the first attempt's start mark (Challenge, Fear) or
    /// the session start (Passive; Reproduction, whose first interval is presented from the start on).
    public var recordStart: MonotonicInstant {
        mode.usesAttempts && mode != .reproduction ? (attempts.first?.startMark ?? startedAt) : startedAt
    }

    /// The session was never started — it ended before the person's first press (`q`, a discard or a
    /// stop while the first attempt waited for its start): it records nothing, and counts for no
    /// preset. A session that did start (a first press, a Passive session, which runs from its start)
    /// is kept when it is aborted or interrupted, with its status and reason, since a study counts
    /// adherence and dropout.
    public var recordsNothing: Bool {
        status != .completed && endedBeforeFirstPress && attempts.isEmpty && boundaries.isEmpty
    }

    /// Repetitions done, for Passive.
    public var repetitionsDone: Int { boundaries.count }

    /// Whole seconds from the record start to the end, rounded half away from zero.
    public var totalDurationSeconds: Int {
        Int((endedAt - recordStart).seconds.rounded(.toNearestOrAwayFromZero))
    }
}
