/// The reminder settings, typed (docs/STUDIES.md, "Reminders"): the delay before a due study session's
/// second reminder, the quiet hours, the daily training reminder and the daily goal. Each setting's
/// text is read by the one parser here, which the settings store's validator also uses.
public struct ReminderSettings: Hashable, Sendable {
    /// After this long a study session still due is reminded once more; nil: one reminder only.
    public var repeatDelay: TimeSpan?
    public var quietHours: QuietHours?
    /// When the daily training reminder plays (outside studies); nil: never.
    public var dailyReminder: TimeOfDay?
    /// Sessions a day the person aims at; 0: no goal.
    public var dailyGoal: Int

    public static let defaultRepeatDelay = TimeSpan.seconds(3600)
    /// A second reminder sooner than 5 minutes would nag; later than 12 hours is another day's.
    public static let repeatRangeMinutes = 5...720
    public static let goalRange = 0...20

    public init(repeatDelay: TimeSpan? = ReminderSettings.defaultRepeatDelay, quietHours: QuietHours? = nil,
                dailyReminder: TimeOfDay? = nil, dailyGoal: Int = 0) {
        self.repeatDelay = repeatDelay
        self.quietHours = quietHours
        self.dailyReminder = dailyReminder
        self.dailyGoal = dailyGoal
    }

    /// `reminder-repeat`: `0` or `off` (nil), else minutes and hours such as `90m`, `1h`, `1h30m`.
    /// Throws the sentence saying what is accepted.
    public static func repeatDelay(parsing raw: String) throws(ReminderSettingError) -> TimeSpan? {
        let text = raw.lowercased()
        if text == "0" || text == "off" { return nil }
        let problem = ReminderSettingError("reminder-repeat is a delay from \(repeatRangeMinutes.lowerBound)m to \(repeatRangeMinutes.upperBound / 60)h such as 30m, 1h or 1h30m, or 0 for no second reminder; got '\(raw)'.")
        var minutes = 0, number = "", sawHours = false, sawMinutes = false
        for character in text {
            if ("0"..."9").contains(character) { number.append(character); continue }
            guard !number.isEmpty, number.count <= 4, let value = Int(number) else { throw problem }
            switch character {
            case "h" where !sawHours && !sawMinutes: minutes += value * 60; sawHours = true
            case "m" where !sawMinutes: minutes += value; sawMinutes = true
            default: throw problem
            }
            number = ""
        }
        guard number.isEmpty, sawHours || sawMinutes, repeatRangeMinutes.contains(minutes) else { throw problem }
        return .seconds(Int64(minutes) * 60)
    }

    /// The canonical text of a repeat delay: `0`, `45m`, `1h`, `1h30m`.
    public static func repeatText(_ delay: TimeSpan?) -> String {
        guard let delay else { return "0" }
        let minutes = Int(delay.nanoseconds / 60_000_000_000)
        switch (minutes / 60, minutes % 60) {
        case (0, let m): return "\(m)m"
        case (let h, 0): return "\(h)h"
        case (let h, let m): return "\(h)h\(m)m"
        }
    }

    /// `quiet-hours`: `off` (nil) or `HH:MM-HH:MM` with different ends.
    public static func quietHours(parsing raw: String) throws(ReminderSettingError) -> QuietHours? {
        if raw.lowercased() == "off" { return nil }
        guard let hours = QuietHours(parsing: raw) else {
            throw ReminderSettingError("quiet-hours is off or a local time window HH:MM-HH:MM with different ends, such as 22:00-07:00; got '\(raw)'.")
        }
        return hours
    }

    /// `daily-reminder`: `off` (nil) or a local time `HH:MM`.
    public static func dailyReminder(parsing raw: String) throws(ReminderSettingError) -> TimeOfDay? {
        if raw.lowercased() == "off" { return nil }
        guard let time = TimeOfDay(parsing: raw) else {
            throw ReminderSettingError("daily-reminder is off or a local time HH:MM on a 24-hour clock, such as 18:30; got '\(raw)'.")
        }
        return time
    }

    /// `daily-goal`: a whole number of sessions from 0 (no goal) to 20.
    public static func dailyGoal(parsing raw: String) throws(ReminderSettingError) -> Int {
        guard raw.count <= 3, let goal = Int(raw), goalRange.contains(goal) else {
            throw ReminderSettingError("daily-goal is a whole number of sessions a day from \(goalRange.lowerBound) (no goal) to \(goalRange.upperBound); got '\(raw)'.")
        }
        return goal
    }
}

/// A reminder setting's text that is not accepted: the sentence names the setting and what it takes.
public struct ReminderSettingError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
