import ChronoCore
import ChronoSync

/// Every setting's stored text, read in one go, with the typed views its readers take: the session's
/// part (`session`, for `SessionResolver`), health logging, privacy.
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

    /// The session's part, typed: what `SessionResolver` takes. A stored value that does not parse or
    /// lies outside its range (a database edited by hand) gives the built-in default.
    public var session: SessionSettings {
        let builtIn = SessionSettings()
        let longPress = Int(self[.longPressMilliseconds]).flatMap { SettingKey.longPressRange.contains($0) ? $0 : nil }
        return SessionSettings(
            defaultMode: SessionMode(rawValue: self[.defaultMode]) ?? builtIn.defaultMode,
            defaultInterval: (try? TrainingInterval.parse(self[.defaultInterval])) ?? builtIn.defaultInterval,
            defaultAttempts: Int(self[.defaultAttempts]) ?? builtIn.defaultAttempts,
            defaultRepetitions: Int(self[.defaultRepetitions]) ?? builtIn.defaultRepetitions,
            fearModeOn: self[.fearMode] == "on",
            fearThreshold: Double(self[.fearThreshold]) ?? builtIn.fearThreshold,
            autoStartNextAttempt: self[.autoStartNextAttempt] == "on",
            longPress: longPress.map { .milliseconds(Int64($0)) } ?? builtIn.longPress)
    }

    public var healthLoggingEnabled: Bool { self[.healthLogging] == "on" }
    public var healthLogPath: String { self[.healthLogFile] }
    public var wallClockCheck: Bool { self[.wallClockCheck] == "on" }
    /// Glanceable surfaces (the state file, the status bar) withhold results (`GlanceablePrivacy`).
    public var glanceablePrivacy: Bool { self[.glanceablePrivacy] == "on" }

    /// The battery levels; stored levels that do not parse, or are out of range or order together (a
    /// database edited by hand), give the standard ones.
    public var batteryThresholds: BatteryThresholds {
        guard let low = Int(self[.batteryLow]), let stop = Int(self[.batteryStop]), let critical = Int(self[.batteryCritical]) else {
            return .standard
        }
        return BatteryThresholds(low: low, stop: stop, critical: critical) ?? .standard
    }

    /// The reminder settings; a stored value that does not parse (a database edited by hand) gives
    /// the built-in default.
    public var reminders: ReminderSettings {
        let builtIn = ReminderSettings()
        // Not `try?`, which would flatten "off" (nil) into "does not parse".
        func read<Value>(_ parse: (String) throws(ReminderSettingError) -> Value, _ key: SettingKey, _ fallback: Value) -> Value {
            do { return try parse(self[key]) } catch { return fallback }
        }
        return ReminderSettings(
            repeatDelay: read(ReminderSettings.repeatDelay(parsing:), .reminderRepeat, builtIn.repeatDelay),
            quietHours: read(ReminderSettings.quietHours(parsing:), .quietHours, nil),
            dailyReminder: read(ReminderSettings.dailyReminder(parsing:), .dailyReminder, nil),
            dailyGoal: read(ReminderSettings.dailyGoal(parsing:), .dailyGoal, builtIn.dailyGoal))
    }

    /// `on`, `off`, or `failing: <reason>` (SPEC §4), as the state file and `health status` show it.
    public var healthStatus: String {
        if !healthLoggingEnabled { return "off" }
        if let healthFailure { return "failing: \(healthFailure)" }
        return "on"
    }
}
