import ChronoCore

/// Range checks for times read back from the database, against the same `TimeLimits` every other
/// input meets: a damaged or hand-edited row becomes a `corrupt` error that names it, never a trap.
enum StoredValueCheck {
    struct OutOfRange: Error, CustomStringConvertible {
        var description: String
    }

    static func marks(_ values: [Int64], session: String) throws(OutOfRange) {
        guard let bad = values.first(where: { !TimeLimits.isAcceptedMonotonic(nanoseconds: $0) }) else { return }
        throw OutOfRange(description: "session \(session) holds a monotonic time of \(bad) ns, outside 0 to \(TimeLimits.maximumMonotonicNanoseconds)")
    }

    static func wallClock(_ unixNanoseconds: Int64, offset: Int, session: String) throws(OutOfRange) {
        guard TimeLimits.isAcceptedWallClock(unixNanoseconds: unixNanoseconds), TimeLimits.isAcceptedUTCOffset(offset) else {
            throw OutOfRange(description: "session \(session) holds a wall-clock time (\(unixNanoseconds) ns, offset \(offset) s) outside the accepted range, \(TimeLimits.wallClockRangeText)")
        }
    }
}
