/// A signed length of time in whole nanoseconds. The core never uses floating-point time for
/// arithmetic: spans and instants stay exact, and seconds as `Double` are derived only for display and
/// for the metrics of SPEC §3.
public struct TimeSpan: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static func nanoseconds(_ value: Int64) -> TimeSpan { TimeSpan(nanoseconds: value) }
    public static func milliseconds(_ value: Int64) -> TimeSpan { TimeSpan(nanoseconds: value * 1_000_000) }
    public static func seconds(_ value: Int64) -> TimeSpan { TimeSpan(nanoseconds: value * 1_000_000_000) }
    public static let zero = TimeSpan(nanoseconds: 0)

    /// The span in seconds, correctly rounded from the exact nanosecond count.
    public var seconds: Double { Double(nanoseconds) / 1e9 }
    /// The span in whole milliseconds, truncated toward zero.
    public var milliseconds: Int64 { nanoseconds / 1_000_000 }

    public static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    public static func + (lhs: TimeSpan, rhs: TimeSpan) -> TimeSpan { TimeSpan(nanoseconds: lhs.nanoseconds + rhs.nanoseconds) }
    public static func - (lhs: TimeSpan, rhs: TimeSpan) -> TimeSpan { TimeSpan(nanoseconds: lhs.nanoseconds - rhs.nanoseconds) }
    public static func * (lhs: TimeSpan, rhs: Int64) -> TimeSpan { TimeSpan(nanoseconds: lhs.nanoseconds * rhs) }

    public var description: String { "\(nanoseconds)ns" }
}
