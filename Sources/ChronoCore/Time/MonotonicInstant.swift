/// An instant on `CLOCK_MONOTONIC`, in nanoseconds. Every mark, deadline and boundary in the product is
/// one of these; the core receives them as values and never reads a clock itself.
public struct MonotonicInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = MonotonicInstant(nanoseconds: 0)

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    public static func + (lhs: MonotonicInstant, rhs: TimeSpan) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: lhs.nanoseconds + rhs.nanoseconds)
    }
    public static func - (lhs: MonotonicInstant, rhs: TimeSpan) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
    }
    public static func - (lhs: MonotonicInstant, rhs: MonotonicInstant) -> TimeSpan {
        TimeSpan(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
    }

    public var description: String { "t=\(nanoseconds)ns" }
}
