/// The range of times the program computes with. Every number that enters from outside (an edge
/// file, a flag, a setting, a board file, the database) is checked against these before the core sees
/// it, so sums of a wall-clock anchor, a monotonic mark and an interval can never overflow `Int64`:
/// the latest wall clock (2100) plus the longest uptime (100 years) plus any interval stays far
/// below `Int64.max` nanoseconds (about 2262).
public enum TimeLimits {
    /// The latest monotonic mark accepted: 100 years after boot (or after a replay's session start).
    public static let maximumMonotonicNanoseconds: Int64 = 3_155_760_000 * 1_000_000_000
    /// The earliest wall-clock time accepted: 1970-01-01T00:00:00Z.
    public static let earliestUnixSeconds: Int64 = 0
    /// The first wall-clock time no longer accepted: 2100-01-01T00:00:00Z.
    public static let endUnixSeconds: Int64 = 4_102_444_800
    /// The accepted wall-clock range in words, for messages.
    public static let wallClockRangeText = "from 1970-01-01 to 2099-12-31 (Unix seconds 0 to 4102444799)"
    /// The longest millisecond setting any timing flag takes (a minute): long press, abort window, feedback.
    public static let maximumTimingMilliseconds: Int64 = 60_000

    /// Whether `unixNanoseconds` is inside the accepted wall-clock range.
    public static func isAcceptedWallClock(unixNanoseconds: Int64) -> Bool {
        unixNanoseconds >= earliestUnixSeconds * 1_000_000_000 && unixNanoseconds < endUnixSeconds * 1_000_000_000
    }

    /// The largest UTC offset accepted, either way: ±18 h, as ISO 8601 allows.
    public static let maximumUTCOffsetSeconds = 18 * 3600

    /// Whether `seconds` is an accepted UTC offset. A range test, never `abs`: `abs(Int.min)` traps,
    /// and an offset of −2⁶³ is exactly what a forged batch or file sends.
    public static func isAcceptedUTCOffset(_ seconds: Int) -> Bool {
        (-maximumUTCOffsetSeconds...maximumUTCOffsetSeconds).contains(seconds)
    }

    /// Whether `nanoseconds` is an accepted monotonic mark.
    public static func isAcceptedMonotonic(nanoseconds: Int64) -> Bool {
        nanoseconds >= 0 && nanoseconds <= maximumMonotonicNanoseconds
    }
}
