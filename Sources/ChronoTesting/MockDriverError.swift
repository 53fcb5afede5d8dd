import ChronoHardware
/// A failure a mock driver was told to produce, so tests can exercise the runtime's error paths.
public struct MockDriverError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What the test said went wrong.
    public var reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
