/// A calendar day inside the accepted wall-clock range (`TimeLimits`: 1970-01-01 to 2099-12-31): the
/// one type every day from outside (a query's `from`/`to`, a flag) is parsed into. Because the range
/// is bounded, the nanosecond arithmetic done on a day (the start of the day before, two days after)
/// can never overflow `Int64` — a day in 2262 or 9999 is refused at the boundary, not trapped on later.
public struct CalendarDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public let daysSinceEpoch: Int64

    /// The first day no longer accepted (2100-01-01).
    public static let endDaysSinceEpoch: Int64 = TimeLimits.endUnixSeconds / 86_400

    /// The accepted range in words, for messages.
    public static let rangeText = "from 1970-01-01 to 2099-12-31"

    /// Nil outside the accepted range.
    public init?(daysSinceEpoch: Int64) {
        guard daysSinceEpoch >= 0, daysSinceEpoch < Self.endDaysSinceEpoch else { return nil }
        self.daysSinceEpoch = daysSinceEpoch
    }

    /// `YYYY-MM-DD` exactly (ASCII digits; 2026-02-30 is refused, not rolled over); nil when the text
    /// is not such a date or the date is outside the accepted range.
    public init?(parsing text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        let days = date.daysSinceEpoch
        guard CivilDate(daysSinceEpoch: days) == date else { return nil }
        self.init(daysSinceEpoch: days)
    }

    /// Nanoseconds since the epoch at 00:00 UTC of the day `offset` days from this one (any offset
    /// within ±36,600 days stays far inside `Int64`).
    public func unixNanoseconds(daysFromThis offset: Int64 = 0) -> Int64 {
        (daysSinceEpoch + max(-36_600, min(36_600, offset))) * 86_400_000_000_000
    }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

    public var description: String {
        let date = CivilDate(daysSinceEpoch: daysSinceEpoch)
        return "\(pad(date.year, 4))-\(pad(date.month, 2))-\(pad(date.day, 2))"
    }
}
