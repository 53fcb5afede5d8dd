/// The length of time a session trains, a whole number of seconds between 10 s and 120m 59s (SPEC §1).
///
/// The value is kept in nanoseconds so that tests and benchmarks can run real sessions with
/// millisecond intervals (`testOnly(milliseconds:)`); every product path goes through the validating
/// initialisers, which accept whole seconds in the product range only.
public struct TrainingInterval: Hashable, Comparable, Sendable, CustomStringConvertible {
    public static let minimumSeconds = 10
    public static let maximumSeconds = 7259
    /// The one built-in preset, 5m 0s.
    public static let builtInPreset = TrainingInterval(validSeconds: 300)

    /// The exact length.
    public let span: TimeSpan

    /// A validated interval of `seconds` whole seconds.
    public init(seconds: Int) throws(IntervalError) {
        guard seconds >= Self.minimumSeconds else { throw .tooShort(seconds: seconds) }
        guard seconds <= Self.maximumSeconds else { throw .tooLong(seconds: seconds) }
        self.init(validSeconds: seconds)
    }

    private init(validSeconds seconds: Int) {
        span = .seconds(Int64(seconds))
    }

    private init(span: TimeSpan) {
        self.span = span
    }

    /// An interval below the product minimum, for tests and benchmarks that run real sessions in
    /// milliseconds. No command-line path reaches this without the hidden test switch.
    public static func testOnly(milliseconds: Int64) -> TrainingInterval {
        TrainingInterval(span: .milliseconds(max(1, milliseconds)))
    }

    /// Parses `300`, `300s`, `5m`, `5m0s`, `5m 0s`, `1m30s` and validates the range.
    public static func parse(_ text: String) throws(IntervalError) -> TrainingInterval {
        try TrainingInterval(seconds: IntervalText.parseSeconds(text))
    }

    /// Whole seconds (`target_interval_seconds`); sub-second test intervals report 0.
    public var seconds: Int { Int(span.nanoseconds / 1_000_000_000) }

    /// Whether this is a whole-second interval inside the product range.
    public var isProductInterval: Bool {
        span.nanoseconds % 1_000_000_000 == 0
            && (Self.minimumSeconds...Self.maximumSeconds).contains(seconds)
    }

    public static func < (lhs: TrainingInterval, rhs: TrainingInterval) -> Bool { lhs.span < rhs.span }

    /// The display rule: `45s`, `1m 5s`, `5m 0s`; test intervals show their milliseconds.
    public var description: String {
        isProductInterval || span.nanoseconds % 1_000_000_000 == 0
            ? DurationText.format(wholeSeconds: seconds)
            : "\(span.milliseconds)ms"
    }
}

/// Why a piece of text is not a usable interval; the message names the problem and the fix.
public enum IntervalError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case malformed(text: String)
    case secondsOutOfRange(text: String)
    case tooShort(seconds: Int)
    case tooLong(seconds: Int)

    public var description: String {
        switch self {
        case .empty:
            return "No interval given. Write it as seconds or minutes and seconds, for example 300, 45s, 5m or 1m30s."
        case .malformed(let text):
            return "'\(text)' is not an interval. Write it as seconds or minutes and seconds, for example 300, 45s, 5m or 1m30s."
        case .secondsOutOfRange(let text):
            return "'\(text)' has more than 59 seconds after the minutes. Write 1m30s rather than 0m90s, or give plain seconds such as 90."
        case .tooShort(let seconds):
            return "\(DurationText.format(wholeSeconds: seconds)) is too short: intervals go from 10s to 120m 59s."
        case .tooLong(let seconds) where seconds > 1_000_000:
            return "That interval is far too long: intervals go from 10s to 120m 59s."
        case .tooLong(let seconds):
            return "\(DurationText.format(wholeSeconds: seconds)) is too long: intervals go from 10s to 120m 59s."
        }
    }
}
