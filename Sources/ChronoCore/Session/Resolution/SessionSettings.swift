/// The settings' part of a session, as typed values: what `SessionResolver` takes from the settings.
/// The store fills it from its rows (`StoreSettings.session`); a command without a store (`replay`)
/// uses the built-in defaults (`init()`), which are also what a missing or unreadable row gives.
public struct SessionSettings: Hashable, Sendable {
    /// `default-mode`, as stored: a Fear default runs only when `FearPermission` allows it.
    public var defaultMode: SessionMode
    /// `default-interval`.
    public var defaultInterval: TrainingInterval
    /// `default-attempts`: Challenge and Fear.
    public var defaultAttempts: Int
    /// `default-repetitions`: Passive.
    public var defaultRepetitions: Int
    /// `fear-mode on`: the lasting Fear opt-in.
    public var fearModeOn: Bool
    /// `fear-threshold`, a fraction (0.10 = 10 %).
    public var fearThreshold: Double
    /// `auto-start`.
    public var autoStartNextAttempt: Bool
    /// `long-press-ms`; the built-in 1500 ms means "not changed" (the board's long press applies).
    public var longPress: TimeSpan

    public init(defaultMode: SessionMode = .challenge,
                defaultInterval: TrainingInterval = .builtInPreset,
                defaultAttempts: Int = SessionConfiguration.defaultAttemptCount,
                defaultRepetitions: Int = SessionConfiguration.defaultRepetitionCount,
                fearModeOn: Bool = false,
                fearThreshold: Double = SessionConfiguration.defaultFearThreshold,
                autoStartNextAttempt: Bool = false,
                longPress: TimeSpan = GestureSettings.defaultLongPress) {
        self.defaultMode = defaultMode
        self.defaultInterval = defaultInterval
        self.defaultAttempts = defaultAttempts
        self.defaultRepetitions = defaultRepetitions
        self.fearModeOn = fearModeOn
        self.fearThreshold = fearThreshold
        self.autoStartNextAttempt = autoStartNextAttempt
        self.longPress = longPress
    }
}
