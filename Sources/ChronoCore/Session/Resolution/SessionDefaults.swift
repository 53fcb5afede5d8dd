/// The settings' (and flags') part of every session, whatever its mode and interval: what
/// `SessionResolver.defaults` gives and `SessionResolver.configuration(mode:interval:count:defaults:pattern:)`
/// applies. The daemon keeps one in its snapshot, for whatever a tap, a preset or a request starts.
public struct SessionDefaults: Hashable, Sendable {
    public var timing: SessionTiming
    public var gestures: GestureSettings
    public var fearThreshold: Double
    /// Counts for a mode chosen without one (a preset or an explicit request without a count).
    public var attempts: Int
    public var repetitions: Int
    /// The `default-mode` setting as it may run now (a Fear default without the opt-in runs as
    /// Challenge, `FearPermission`): what a preset started by name (`start --preset`) runs.
    public var mode: SessionMode

    public init(timing: SessionTiming = SessionTiming(), gestures: GestureSettings = GestureSettings(),
                fearThreshold: Double = SessionConfiguration.defaultFearThreshold,
                attempts: Int = SessionConfiguration.defaultAttemptCount,
                repetitions: Int = SessionConfiguration.defaultRepetitionCount,
                mode: SessionMode = .challenge) {
        self.timing = timing
        self.gestures = gestures
        self.fearThreshold = fearThreshold
        self.attempts = attempts
        self.repetitions = repetitions
        self.mode = mode
    }

    /// The count for `mode` when none is given: attempts for Challenge and Fear, repetitions for Passive.
    public func count(for mode: SessionMode) -> Int { mode.usesAttempts ? attempts : repetitions }
}
