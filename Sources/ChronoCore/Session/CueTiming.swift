/// Whether a cue that marks time began when it was due: a Passive boundary's pattern, or the start cue
/// of an attempt that started by itself at the end of the previous one's feedback.
///
/// The loop commands such a cue at an absolute deadline and reports when it really began (the driver
/// call's return on the loop thread, plus the board's onset latency). A stalled process — SIGSTOP, a
/// suspended VM, a starved CPU — makes that instant late; the record then keeps the real instant and
/// the session is flagged, instead of the schedule being shifted or a wrong instant being stored.
/// Pure: the decision is made from the two instants, never from a clock.
public enum CueTiming {
    /// How late a cue may begin before its session is flagged. 50 ms: about 300 times the loop's own
    /// 99th-percentile lateness in `benchmarks/timing` (159.7 µs on the reference machine), so an
    /// ordinary wake-up never raises the flag, and twice the onset latency the Pi boards allow for the
    /// motor; yet 0.5 % of the shortest interval (10 s), so any stall that could move a felt mark by
    /// a noticeable amount does.
    public static let tolerance = TimeSpan.milliseconds(50)

    /// How late the cue began after `due` (the instant it was asked for), when that is beyond
    /// `tolerance`; nil when it began within it (or early).
    public static func lateness(due: MonotonicInstant, began: MonotonicInstant) -> TimeSpan? {
        let late = began - due
        return late > tolerance ? late : nil
    }

    /// The larger of two latenesses (either may be absent).
    public static func worse(_ a: TimeSpan?, _ b: TimeSpan?) -> TimeSpan? {
        switch (a, b) {
        case (let a?, let b?): return max(a, b)
        case (let a?, nil): return a
        case (nil, let b): return b
        }
    }

    /// A lateness in milliseconds as shown to people and machines (`sessions`, the API, the CSV):
    /// three decimals, so 1.5 s late reads 1500.123.
    public static func milliseconds(_ lateness: TimeSpan) -> Double {
        Double(lateness.nanoseconds) / 1e6
    }
}
