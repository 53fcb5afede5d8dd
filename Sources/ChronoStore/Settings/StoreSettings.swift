import ChronoCore

/// A typed snapshot of every setting, read in one go: what the next session (device daemon or session
/// command) uses as its defaults.
public struct StoreSettings: Hashable, Sendable {
    /// The canonical text of every key.
    public private(set) var values: [SettingKey: String]
    /// Set while health logging is failing: the reason of the first failure.
    public var healthFailure: String?

    public init(values: [SettingKey: String], healthFailure: String?) {
        self.values = values
        self.healthFailure = healthFailure
    }

    public subscript(key: SettingKey) -> String { values[key] ?? "" }

    public var defaultMode: SessionMode {
        let mode = SessionMode(rawValue: self[.defaultMode]) ?? .challenge
        return mode == .fear && !fearModeEnabled ? .challenge : mode
    }
    public var defaultInterval: TrainingInterval { (try? TrainingInterval.parse(self[.defaultInterval])) ?? .builtInPreset }
    public var defaultAttempts: Int { Int(self[.defaultAttempts]) ?? SessionConfiguration.defaultAttemptCount }
    public var defaultRepetitions: Int { Int(self[.defaultRepetitions]) ?? SessionConfiguration.defaultRepetitionCount }
    public var fearModeEnabled: Bool { self[.fearMode] == "on" }
    public var fearThreshold: Double { Double(self[.fearThreshold]) ?? SessionConfiguration.defaultFearThreshold }
    public var healthLoggingEnabled: Bool { self[.healthLogging] == "on" }
    public var healthLogPath: String { self[.healthLogFile] }
    public var wallClockCheck: Bool { self[.wallClockCheck] == "on" }
    public var autoStartNextAttempt: Bool { self[.autoStartNextAttempt] == "on" }
    /// Glanceable surfaces (the state file, the status bar) withhold results (`GlanceablePrivacy`).
    public var glanceablePrivacy: Bool { self[.glanceablePrivacy] == "on" }
    /// A stored value outside the setting's range (a database edited by hand) falls back to the default.
    public var longPress: TimeSpan {
        guard let value = Int(self[.longPressMilliseconds]), SettingKey.longPressRange.contains(value) else {
            return GestureSettings.defaultLongPress
        }
        return .milliseconds(Int64(value))
    }

    /// `on`, `off`, or `failing: <reason>` (SPEC §4), as the state file and `health status` show it.
    public var healthStatus: String {
        if !healthLoggingEnabled { return "off" }
        if let healthFailure { return "failing: \(healthFailure)" }
        return "on"
    }

    /// The configuration a new session starts with, from these defaults and whatever the caller
    /// overrides. Fear is refused unless opted in.
    public func sessionConfiguration(
        mode: SessionMode? = nil, interval: TrainingInterval? = nil, count: Int? = nil,
        pattern: HapticPattern? = nil, timing: SessionTiming? = nil, gestures: GestureSettings? = nil
    ) throws(ConfigurationError) -> SessionConfiguration {
        let chosenMode = mode ?? defaultMode
        if chosenMode == .fear && !fearModeEnabled { throw .unknownMode("fear (Fear Mode is opt-in: chronoception settings set fear-mode on)") }
        return try SessionConfiguration(
            mode: chosenMode,
            interval: interval ?? defaultInterval,
            plannedCount: count ?? (chosenMode.usesAttempts ? defaultAttempts : defaultRepetitions),
            fearThreshold: fearThreshold,
            intervalPattern: pattern ?? IntervalPatternBook.candidates[0],
            timing: timing ?? SessionTiming(autoStartNextAttempt: autoStartNextAttempt),
            gestures: gestures ?? GestureSettings(longPress: longPress))
    }
}
