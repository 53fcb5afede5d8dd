/// A reminder the device gives (docs/STUDIES.md, "Reminders"): the session-due cue on the device, and
/// on a desktop a notification with the same words.
public struct Reminder: Hashable, Sendable {
    public enum Subject: Hashable, Sendable {
        /// A study's planned session (its plan position) is due; `ordinal` 1 is the first reminder,
        /// 2 the one after `reminder-repeat`.
        case studySession(position: Int, ordinal: Int)
        /// The daily training reminder of local day `localDay` (days since 1970-01-01, local time).
        case daily(localDay: Int64)
    }

    public var subject: Subject
    /// The words a person reads: "Study sleep-2026: day 3, session 2 is due."
    public var text: String

    public init(subject: Subject, text: String) {
        self.subject = subject
        self.text = text
    }
}

/// What this device has reminded of so far, so a due session is reminded at most twice and a day's
/// training reminder once. Kept by the daemon while it runs (a daemon started again reminds once more
/// of what is still due).
public struct ReminderLog: Hashable, Sendable {
    /// The plan position last reminded of, and when each of its reminders played.
    public var studyPosition: Int?
    public var studyPlayed: [Int64] = []
    /// The last local day whose daily reminder played.
    public var dailyDay: Int64?
    /// The latest reminder, with when it played: what the surfaces show while its subject is still due.
    public var latest: (reminder: Reminder, playedUnixNanoseconds: Int64)?

    public init() {}

    /// The log once `reminder` has played at `instant`.
    public func recording(_ reminder: Reminder, at instant: Int64) -> ReminderLog {
        var log = self
        switch reminder.subject {
        case .studySession(let position, _):
            if log.studyPosition != position { log.studyPlayed = [] }
            log.studyPosition = position
            log.studyPlayed.append(instant)
        case .daily(let day):
            log.dailyDay = day
        }
        log.latest = (reminder, instant)
        return log
    }

    public static func == (lhs: ReminderLog, rhs: ReminderLog) -> Bool {
        lhs.studyPosition == rhs.studyPosition && lhs.studyPlayed == rhs.studyPlayed && lhs.dailyDay == rhs.dailyDay
            && lhs.latest?.reminder == rhs.latest?.reminder && lhs.latest?.playedUnixNanoseconds == rhs.latest?.playedUnixNanoseconds
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(studyPosition)
        hasher.combine(studyPlayed)
        hasher.combine(dailyDay)
        hasher.combine(latest?.reminder)
        hasher.combine(latest?.playedUnixNanoseconds)
    }
}
