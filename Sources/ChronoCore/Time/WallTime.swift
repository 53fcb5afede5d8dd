/// A wall-clock time with the UTC offset it is shown in; formats itself without Foundation.
public struct WallTime: Hashable, Sendable, Comparable {
    public var unixNanoseconds: Int64
    public var utcOffsetSeconds: Int

    public init(unixNanoseconds: Int64, utcOffsetSeconds: Int) {
        self.unixNanoseconds = unixNanoseconds
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    public static func < (lhs: WallTime, rhs: WallTime) -> Bool { lhs.unixNanoseconds < rhs.unixNanoseconds }

    /// ISO 8601 with milliseconds and offset, e.g. `2026-11-23T08:20:17.123+01:00`.
    /// Milliseconds are truncated (floored), never rounded up into the next second.
    public var iso8601: String {
        let parts = localParts
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T"
            + "\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2)).\(pad(parts.millisecond, 3))"
            + offsetText(separator: ":")
    }

    /// The date format of Apple Health's `export.xml`, e.g. `2026-11-23 08:20:17 +0100`.
    public var appleHealthExportText: String {
        let parts = localParts
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2)) "
            + "\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2)) "
            + offsetText(separator: "")
    }

    /// The local calendar day, `YYYY-MM-DD`.
    public var localDayText: String {
        let parts = localParts
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))"
    }

    /// The local day and minute, `YYYY-MM-DD HH:MM`: a time a person reads at a glance (the sessions
    /// table, the companion's Sync card).
    public var localMinuteText: String {
        let parts = localParts
        return "\(localDayText) \(pad(parts.hour, 2)):\(pad(parts.minute, 2))"
    }

    /// Days since 1970-01-01 in local time (floored), for day-by-day grouping.
    public var localDayNumber: Int64 {
        floorDivide(unixNanoseconds + Int64(utcOffsetSeconds) * 1_000_000_000, 86_400_000_000_000)
    }

    /// Broken-down local time.
    public struct Parts: Equatable, Sendable {
        public var year, month, day, hour, minute, second, millisecond: Int
    }

    public var localParts: Parts {
        let localNanoseconds = unixNanoseconds + Int64(utcOffsetSeconds) * 1_000_000_000
        let totalMilliseconds = floorDivide(localNanoseconds, 1_000_000)
        let days = floorDivide(totalMilliseconds, 86_400_000)
        let millisecondOfDay = totalMilliseconds - days * 86_400_000
        let civil = CivilDate(daysSinceEpoch: days)
        return Parts(
            year: civil.year, month: civil.month, day: civil.day,
            hour: Int(millisecondOfDay / 3_600_000),
            minute: Int(millisecondOfDay / 60_000 % 60),
            second: Int(millisecondOfDay / 1000 % 60),
            millisecond: Int(millisecondOfDay % 1000))
    }

    private func offsetText(separator: String) -> String {
        let sign = utcOffsetSeconds < 0 ? "-" : "+"
        let magnitude = abs(utcOffsetSeconds)
        return "\(sign)\(pad(magnitude / 3600, 2))\(separator)\(pad(magnitude / 60 % 60, 2))"
    }
}

/// Zero-padded decimal text of a non-negative number.
func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// Division rounding toward negative infinity, so times before 1970 still fall on the right day.
func floorDivide(_ numerator: Int64, _ denominator: Int64) -> Int64 {
    let quotient = numerator / denominator
    return (numerator % denominator != 0 && (numerator < 0) != (denominator < 0)) ? quotient - 1 : quotient
}
