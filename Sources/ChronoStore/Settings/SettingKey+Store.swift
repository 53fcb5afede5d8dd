import ChronoCore
import ChronoSync

// `SettingKey` itself is ChronoSync's (the collector shares it); the store's words about each key
// live here. A user of the store that names a key imports ChronoSync itself.

extension SettingKey {
    public var summary: String {
        switch self {
        case .defaultMode: return "Mode a new session uses: \(SessionMode.listText) (fear needs fear-mode on)."
        case .defaultInterval: return "Interval a new session uses, e.g. 5m, 90, 1m30s (10s to 120m 59s)."
        case .defaultAttempts: return "Attempts per \(SessionMode.attemptModesText) session (1 to 99)."
        case .defaultRepetitions: return "Repetitions per \(SessionMode.boundaryModesText) session (1 to 99)."
        case .fearMode: return "Fear Mode opt-in: on or off. An experiment, off by default."
        case .fearThreshold: return "Fear Mode plays its sound from this error, as a fraction (0.10 = 10 %)."
        case .healthLogging: return "Write completed sessions to the health log: on or off (status: chronoception health status)."
        case .healthLogFile: return "The health log's JSON Lines file (default: <data-dir>/\(StoreLocation.defaultHealthLogRelativePath))."
        case .wallClockCheck: return "Hold health records back while the kernel says the wall clock is not synchronised: on or off."
        case .autoStartNextAttempt: return "Start the next attempt by itself after the feedback: on or off."
        case .longPressMilliseconds: return "How long a press must be held to count as a long press, in ms (\(Self.longPressRange.lowerBound) to \(Self.longPressRange.upperBound))."
        case .glanceablePrivacy: return "Hide scores and feedback from the state file and the status bar (what the device is doing stays): on or off."
        case .batteryLow: return "Battery percent at which the low-battery cue plays, once per discharge (\(BatteryThresholds.lowRange.lowerBound) to \(BatteryThresholds.lowRange.upperBound), above battery-stop)."
        case .batteryStop: return "Battery percent at or below which no session starts and a Passive session the battery cannot finish ends early (\(BatteryThresholds.stopRange.lowerBound) to \(BatteryThresholds.stopRange.upperBound))."
        case .batteryCritical: return "Battery percent at which the session is saved and the device powers off (\(BatteryThresholds.criticalRange.lowerBound) to \(BatteryThresholds.criticalRange.upperBound), below battery-stop)."
        case .reminderRepeat: return "Remind once more of a study session still due after this delay, e.g. 30m, 1h, 1h30m (\(ReminderSettings.repeatRangeMinutes.lowerBound)m to \(ReminderSettings.repeatRangeMinutes.upperBound / 60)h); 0 for one reminder only."
        case .quietHours: return "No reminder plays between these local times, e.g. 22:00-07:00 (one falling inside waits for the end); off for none."
        case .dailyReminder: return "Outside studies, remind to train at this local time, e.g. 18:30, unless today's goal is reached; off for none."
        case .dailyGoal: return "Sessions a day to aim at, shown against today's count (\(ReminderSettings.goalRange.lowerBound) for no goal to \(ReminderSettings.goalRange.upperBound))."
        }
    }

    /// Values to offer when completing `settings set KEY <TAB>`: every value of a closed set (on/off,
    /// the modes), a few typical ones otherwise; none for a path (the shell completes files).
    public var suggestedValues: [String] {
        switch self {
        case .defaultMode: return SessionMode.allCases.map(\.rawValue)
        case .defaultInterval: return ["30s", "1m", "2m", "5m", "10m"]
        case .defaultAttempts: return ["1", "3", "5", "10"]
        case .defaultRepetitions: return ["3", "6", "10"]
        case .fearMode, .healthLogging, .wallClockCheck, .autoStartNextAttempt, .glanceablePrivacy: return ["on", "off"]
        case .fearThreshold: return ["0.05", "0.1", "0.2"]
        case .healthLogFile: return []
        case .longPressMilliseconds: return ["1000", "1500", "2000"]
        case .batteryLow: return ["10", "15", "20"]
        case .batteryStop: return ["5", "8", "10"]
        case .batteryCritical: return ["2", "3", "4"]
        case .reminderRepeat: return ["0", "30m", "1h", "2h"]
        case .quietHours: return ["off", "22:00-07:00", "23:00-08:00"]
        case .dailyReminder: return ["off", "09:00", "18:30"]
        case .dailyGoal: return ["0", "1", "2", "3"]
        }
    }

    /// The value before the user changes it (the health log file default depends on the data directory).
    public func defaultValue(location: StoreLocation) -> String {
        switch self {
        case .defaultMode: return SessionMode.challenge.rawValue
        case .defaultInterval: return TrainingInterval.builtInPreset.description
        case .defaultAttempts: return String(SessionConfiguration.defaultAttemptCount)
        case .defaultRepetitions: return String(SessionConfiguration.defaultRepetitionCount)
        case .fearMode: return "off"
        case .fearThreshold: return JSONValue.double(SessionConfiguration.defaultFearThreshold).compactText
        case .healthLogging: return "on"
        case .healthLogFile: return location.defaultHealthLogPath
        case .wallClockCheck: return "on"
        case .autoStartNextAttempt: return "off"
        case .longPressMilliseconds: return String(GestureSettings.defaultLongPress.milliseconds)
        case .glanceablePrivacy: return "off"
        case .batteryLow: return String(BatteryThresholds.standard.low)
        case .batteryStop: return String(BatteryThresholds.standard.stop)
        case .batteryCritical: return String(BatteryThresholds.standard.critical)
        case .reminderRepeat: return ReminderSettings.repeatText(ReminderSettings.defaultRepeatDelay)
        case .quietHours, .dailyReminder: return "off"
        case .dailyGoal: return "0"
        }
    }

    /// Validates text and returns the form that is stored; the error says what is accepted.
    public func canonicalValue(_ raw: String, current: StoreSettings) throws(StoreError) -> String {
        let text = raw.trimmingWhitespace
        switch self {
        case .defaultMode:
            guard let mode = SessionMode(rawValue: text.lowercased()) else {
                throw .invalidValue("'\(text)' is not a mode. Use \(SessionMode.listText).")
            }
            // A stored default outlives any process, so only the setting's own opt-in counts here.
            if !FearPermission(optIn: false, settingOn: current.session.fearModeOn).allowsByName(mode) {
                throw .invalidValue("Fear Mode is opt-in: turn it on first with `chronoception settings set fear-mode on`.")
            }
            return mode.rawValue
        case .defaultInterval:
            do { return try TrainingInterval.parse(text).description } catch { throw .invalidValue(error.description) }
        case .defaultAttempts, .defaultRepetitions:
            guard let count = Int(text), SessionConfiguration.countRange.contains(count) else {
                throw .invalidValue("\(rawValue) must be a whole number from \(SessionConfiguration.countRange.lowerBound) to \(SessionConfiguration.countRange.upperBound); got '\(text)'.")
            }
            return String(count)
        case .fearMode, .healthLogging, .wallClockCheck, .autoStartNextAttempt, .glanceablePrivacy:
            switch text.lowercased() {
            case "on", "true", "yes", "1": return "on"
            case "off", "false", "no", "0": return "off"
            default: throw .invalidValue("\(rawValue) is on or off; got '\(text)'.")
            }
        case .fearThreshold:
            guard let value = Double(text), value.isFinite, value > 0, value <= 10 else {
                throw .invalidValue("fear-threshold is a fraction above 0, for example 0.10 for 10 %; got '\(text)'.")
            }
            return JSONValue.double(value).compactText
        case .healthLogFile:
            guard text.hasPrefix("/") else {
                throw .invalidValue("health-log-file must be an absolute path such as /home/pi/health/mindful.jsonl; got '\(text)'.")
            }
            // A newline or other control character in a path is almost always a paste accident, and
            // would make every message naming the file misleading.
            guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }), text.utf8.count <= 4096,
                  !text.hasSuffix("/") else {
                throw .invalidValue("health-log-file must be a file's absolute path without control characters (newlines, tabs) and not ending in /; retype it, for example /home/pi/health/mindful.jsonl.")
            }
            return text
        case .longPressMilliseconds:
            guard let value = Int(text), Self.longPressRange.contains(value) else {
                throw .invalidValue("long-press-ms must be a whole number of milliseconds from \(Self.longPressRange.lowerBound) to \(Self.longPressRange.upperBound); got '\(text)'.")
            }
            return String(value)
        case .batteryLow, .batteryStop, .batteryCritical:
            return try canonicalBatteryLevel(text, current: current.batteryThresholds)
        case .reminderRepeat, .quietHours, .dailyReminder, .dailyGoal:
            do { return try canonicalReminderValue(text) } catch { throw .invalidValue(error.description) }
        }
    }

    /// A reminder setting's canonical text, through `ReminderSettings`' one parser per setting.
    private func canonicalReminderValue(_ text: String) throws(ReminderSettingError) -> String {
        switch self {
        case .reminderRepeat: return ReminderSettings.repeatText(try ReminderSettings.repeatDelay(parsing: text))
        case .quietHours: return try ReminderSettings.quietHours(parsing: text)?.description ?? "off"
        case .dailyReminder: return try ReminderSettings.dailyReminder(parsing: text)?.description ?? "off"
        default: return String(try ReminderSettings.dailyGoal(parsing: text))
        }
    }

    /// A battery level: a whole percent in the key's range, and in order with the other two levels as
    /// they are now (raise battery-low before battery-stop above it).
    private func canonicalBatteryLevel(_ text: String, current: BatteryThresholds) throws(StoreError) -> String {
        let range = switch self {
        case .batteryLow: BatteryThresholds.lowRange
        case .batteryStop: BatteryThresholds.stopRange
        default: BatteryThresholds.criticalRange
        }
        guard let value = Int(text.hasSuffix("%") ? String(text.dropLast()).trimmingWhitespace : text), range.contains(value) else {
            throw .invalidValue("\(rawValue) must be a whole percent from \(range.lowerBound) to \(range.upperBound); got '\(text)'.")
        }
        let low = self == .batteryLow ? value : current.low
        let stop = self == .batteryStop ? value : current.stop
        let critical = self == .batteryCritical ? value : current.critical
        if let problem = BatteryThresholds.orderProblem(low: low, stop: stop, critical: critical) {
            throw .invalidValue("\(problem). Change the other level first (`chronoception settings list` shows them).")
        }
        return String(value)
    }
}
