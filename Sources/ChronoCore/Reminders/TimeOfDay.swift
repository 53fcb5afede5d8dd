/// A local clock time, to the minute ("07:30"): when the daily reminder plays, and where quiet hours
/// start and end. Parsed from the settings' text by one validator, so every reader sees the same value.
public struct TimeOfDay: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Minutes since local midnight, 0 to 1439.
    public let minuteOfDay: Int

    public init?(minuteOfDay: Int) {
        guard (0..<1440).contains(minuteOfDay) else { return nil }
        self.minuteOfDay = minuteOfDay
    }

    /// `HH:MM` on a 24-hour clock (`7:30` is accepted too); nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts[0].allSatisfy(\.isASCIIDigit), parts[1].allSatisfy(\.isASCIIDigit),
              let hour = Int(parts[0]), let minute = Int(parts[1]), hour < 24, minute < 60 else { return nil }
        self.init(minuteOfDay: hour * 60 + minute)
    }

    /// `07:30`: the canonical text the settings store.
    public var description: String { "\(pad(minuteOfDay / 60, 2)):\(pad(minuteOfDay % 60, 2))" }

    /// Nanoseconds from local midnight.
    public var nanosecondsFromMidnight: Int64 { Int64(minuteOfDay) * 60_000_000_000 }

    /// This clock time on local day `day` (days since 1970-01-01 in local time) at `utcOffsetSeconds`.
    public func unixNanoseconds(onLocalDay day: Int64, utcOffsetSeconds: Int) -> Int64 {
        day &* StudySchedule.dayNanoseconds &+ nanosecondsFromMidnight &- Int64(utcOffsetSeconds) &* 1_000_000_000
    }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool { lhs.minuteOfDay < rhs.minuteOfDay }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
