/// One reading of the wall clock paired with the monotonic clock, taken once at session start.
///
/// Health-record dates are derived from monotonic marks through this pair only, so a wall-clock step
/// in the middle of a session (NTP, a user changing the date) changes nothing about the session.
public struct WallClockAnchor: Hashable, Sendable {
    /// Nanoseconds since the Unix epoch (UTC) at the anchor.
    public var unixNanoseconds: Int64
    /// The monotonic instant read together with `unixNanoseconds`.
    public var monotonic: MonotonicInstant
    /// The local offset from UTC, in seconds, used when dates are shown with an offset.
    public var utcOffsetSeconds: Int

    public init(unixNanoseconds: Int64, monotonic: MonotonicInstant, utcOffsetSeconds: Int) {
        self.unixNanoseconds = unixNanoseconds
        self.monotonic = monotonic
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The wall-clock time of a monotonic instant, as nanoseconds since the Unix epoch.
    public func unixNanoseconds(at instant: MonotonicInstant) -> Int64 {
        unixNanoseconds + (instant - monotonic).nanoseconds
    }

    /// The wall-clock time of a monotonic instant, nil when it falls outside the accepted range
    /// (`TimeLimits`) or cannot be computed without overflow.
    public func checkedUnixNanoseconds(at instant: MonotonicInstant) -> Int64? {
        let (offset, overflowA) = instant.nanoseconds.subtractingReportingOverflow(monotonic.nanoseconds)
        guard !overflowA else { return nil }
        let (result, overflowB) = unixNanoseconds.addingReportingOverflow(offset)
        guard !overflowB, TimeLimits.isAcceptedWallClock(unixNanoseconds: result) else { return nil }
        return result
    }

    /// The wall-clock time of a monotonic instant, in this anchor's offset.
    public func wallTime(at instant: MonotonicInstant) -> WallTime {
        WallTime(unixNanoseconds: unixNanoseconds(at: instant), utcOffsetSeconds: utcOffsetSeconds)
    }
}
