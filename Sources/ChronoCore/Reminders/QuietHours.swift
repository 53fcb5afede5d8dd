/// The daily window in which no reminder plays (the `quiet-hours` setting, e.g. `22:00-07:00`): from
/// `start` included to `end` excluded, in local time, across midnight when `start` is later than `end`.
/// A reminder falling inside waits for the window's end (`ReminderRules`).
public struct QuietHours: Hashable, Sendable, CustomStringConvertible {
    public let start: TimeOfDay
    public let end: TimeOfDay

    /// Nil when `start` equals `end` (a window of nothing, or of the whole day: neither is meant).
    public init?(start: TimeOfDay, end: TimeOfDay) {
        guard start != end else { return nil }
        self.start = start
        self.end = end
    }

    /// `HH:MM-HH:MM`; nil for anything else, or for equal ends.
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = TimeOfDay(parsing: String(parts[0])), let end = TimeOfDay(parsing: String(parts[1])) else { return nil }
        self.init(start: start, end: end)
    }

    /// `22:00-07:00`: the canonical text the settings store.
    public var description: String { "\(start)-\(end)" }

    /// Whether `instant` lies inside the window, at `utcOffsetSeconds`.
    public func contains(_ instant: Int64, utcOffsetSeconds: Int) -> Bool {
        let sinceMidnight = Self.sinceLocalMidnight(instant, utcOffsetSeconds: utcOffsetSeconds)
        let from = start.nanosecondsFromMidnight, to = end.nanosecondsFromMidnight
        return from < to ? (from..<to).contains(sinceMidnight) : sinceMidnight >= from || sinceMidnight < to
    }

    /// `instant` itself when it is outside the window, else the window's end.
    public func firstAllowed(notBefore instant: Int64, utcOffsetSeconds: Int) -> Int64 {
        guard contains(instant, utcOffsetSeconds: utcOffsetSeconds) else { return instant }
        let day = WallTime(unixNanoseconds: instant, utcOffsetSeconds: utcOffsetSeconds).localDayNumber
        let sinceMidnight = Self.sinceLocalMidnight(instant, utcOffsetSeconds: utcOffsetSeconds)
        // Inside and before the end's clock time: the window ends today; else (the evening part of a
        // window across midnight) tomorrow.
        let endDay = sinceMidnight < end.nanosecondsFromMidnight ? day : day + 1
        return end.unixNanoseconds(onLocalDay: endDay, utcOffsetSeconds: utcOffsetSeconds)
    }

    static func sinceLocalMidnight(_ instant: Int64, utcOffsetSeconds: Int) -> Int64 {
        let local = instant &+ Int64(utcOffsetSeconds) &* 1_000_000_000
        return local - floorDivide(local, StudySchedule.dayNanoseconds) * StudySchedule.dayNanoseconds
    }
}
