import ChronoCore

/// Where the runtime hands sessions so that they are kept: the store (through an adapter in the
/// command-line target), or standard output when there is none. The runtime calls these methods from
/// its writer thread, never from the session loop, so an implementation may block on disk.
public protocol SessionRecorder: AnyObject, Sendable {
    /// A session has started: keep a `running` row so that a crash leaves a trace
    /// ("Previous session ended unexpectedly." on the next start).
    func sessionStarted(_ start: SessionStartRecord)
    /// A session has finished (completed, aborted or interrupted): keep it, and log it to health if due.
    func sessionFinished(_ finish: SessionFinishRecord)
}

/// What is known when a session starts.
public struct SessionStartRecord: Sendable {
    public var sessionID: String
    public var configuration: SessionConfiguration
    /// The one wall/monotonic pair of the session (SPEC §4).
    public var anchor: WallClockAnchor
    /// The board's name, written as the health record's `device`.
    public var board: String
    /// For Fear: whether sound was audible when the session started.
    public var soundAudible: Bool

    public init(sessionID: String, configuration: SessionConfiguration, anchor: WallClockAnchor, board: String, soundAudible: Bool) {
        self.sessionID = sessionID
        self.configuration = configuration
        self.anchor = anchor
        self.board = board
        self.soundAudible = soundAudible
    }
}

/// What is known when a session finishes.
public struct SessionFinishRecord: Sendable {
    public var sessionID: String
    public var outcome: SessionOutcome
    public var anchor: WallClockAnchor
    public var board: String
    /// Passive boundaries as the motor driver actually fired them (monotonic), beside the due instants
    /// in `outcome.boundaries`; empty when not measured.
    public var boundariesFired: [MonotonicInstant]

    public init(sessionID: String, outcome: SessionOutcome, anchor: WallClockAnchor, board: String, boundariesFired: [MonotonicInstant]) {
        self.sessionID = sessionID
        self.outcome = outcome
        self.anchor = anchor
        self.board = board
        self.boundariesFired = boundariesFired
    }
}

/// What the device daemon needs between sessions: the configuration an idle tap starts, the presets
/// in frecency order and their H(I) patterns, and the health-log status for the state file.
public protocol DeviceLibrary: AnyObject, Sendable {
    /// Read between sessions only (never while a session runs).
    func idleMenuInputs(nowUnixSeconds: Int64) -> (lastConfiguration: SessionConfiguration, presets: [TrainingInterval], patterns: IntervalPatternBook)
    /// `on`, `off`, or `failing: <reason>` — shown in the state file.
    func healthStatus() -> String
}
