/// A server's own monotonic clock for its rate limits: nanoseconds since the clock was made, from
/// Swift's `ContinuousClock`. One place for what the pairing gate and the failed-authentication limit
/// both need by default (tests pass their own clocks instead).
enum ElapsedClock {
    /// A clock that starts at zero now.
    static func nanosecondsSinceNow() -> @Sendable () -> Int64 {
        let origin = ContinuousClock.now
        return {
            let (seconds, attoseconds) = (ContinuousClock.now - origin).components
            return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        }
    }
}
