/// What the command line said about a session; nil: not given. An explicit value always wins over the
/// settings and the board, even when it equals the built-in default.
public struct SessionFlags: Hashable, Sendable {
    public var mode: SessionMode?
    public var interval: TrainingInterval?
    public var attempts: Int?
    public var repetitions: Int?
    public var fearThreshold: Double?
    public var debounceMilliseconds: Int64?
    public var longPressMilliseconds: Int64?
    public var feedbackMilliseconds: Int64?
    public var abortWindowMilliseconds: Int64?
    public var autoStart: Bool?
    /// `--feedback` (`replay`): whether each press gets its error, zone and score, or the neutral cue.
    public var feedback: FeedbackPolicy?
    /// `--i-understand-fear-mode`: the Fear opt-in for this process (`FearPermission`).
    public var fearOptIn = false

    public init() {}

    /// The count given for `mode`: attempts for Challenge and Fear, repetitions for Passive.
    public func count(for mode: SessionMode) -> Int? { mode.usesAttempts ? attempts : repetitions }

    /// Whether any of the session's own choices (mode, interval, count) was given.
    public var choosesSession: Bool { mode != nil || interval != nil || attempts != nil || repetitions != nil }
}
