import ChronoCore

/// The settings a user can change (SPEC §6): their names on the wire and in the store, which are local
/// to a machine and which sync carries. Shared by the device and the collector, so it lives with
/// sync; their defaults and how a value is validated are the store's (ChronoStore's `SettingKey`
/// extension: values are stored as their canonical text, and `chronoception settings set`, the
/// companion and the collector's `preferences set` all go through `canonicalValue`).
public enum SettingKey: String, CaseIterable, Sendable {
    case defaultMode = "default-mode"
    case defaultInterval = "default-interval"
    case defaultAttempts = "default-attempts"
    case defaultRepetitions = "default-repetitions"
    case fearMode = "fear-mode"
    case fearThreshold = "fear-threshold"
    case healthLogging = "health-logging"
    case healthLogFile = "health-log-file"
    case wallClockCheck = "wall-clock-check"
    case autoStartNextAttempt = "auto-start"
    case longPressMilliseconds = "long-press-ms"
    case glanceablePrivacy = "glanceable-privacy"
    case batteryLow = "battery-low"
    case batteryStop = "battery-stop"
    case batteryCritical = "battery-critical"
    case reminderRepeat = "reminder-repeat"
    case quietHours = "quiet-hours"
    case dailyReminder = "daily-reminder"
    case dailyGoal = "daily-goal"

    /// Settings about this machine itself — a file path on it, its own clock — that only its local
    /// user changes: the device API refuses them from a paired key beyond loopback, and sync never
    /// carries them (`PreferenceMerge.syncedKeys` leaves them out; a test checks the two agree).
    public var isLocalOnly: Bool { self == .healthLogFile || self == .wallClockCheck }

    /// Whether sync carries the setting (`PreferenceMerge.syncedKeys`; a test checks the two agree):
    /// not the local-only ones, and not `glanceable-privacy` — what this device's own state file and
    /// status bar show is a choice for where it stands, which a paired phone may change but a
    /// collector must not set for every device.
    /// The battery levels are this device's battery's (another device's battery differs) but a paired
    /// phone may change them: not local-only, not synced either.
    /// The reminders are when this device buzzes or notifies (a wearable and a desktop remind
    /// differently): per device too.
    public var isSynced: Bool { !isLocalOnly && self != .glanceablePrivacy && !isBatteryLevel && !isReminder }

    /// The reminder settings (`ReminderSettings`, docs/STUDIES.md "Reminders").
    public var isReminder: Bool { self == .reminderRepeat || self == .quietHours || self == .dailyReminder || self == .dailyGoal }

    /// The battery levels (`BatteryThresholds`), validated against each other as well as alone.
    public var isBatteryLevel: Bool { self == .batteryLow || self == .batteryStop || self == .batteryCritical }

    /// The range accepted for the long press: shorter than half a second is an ordinary tap for many
    /// people; longer than 5 s is no longer a gesture.
    public static let longPressRange = 500...5000
}
