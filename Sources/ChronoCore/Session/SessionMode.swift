/// The three ways to train (SPEC §2). The raw values are the `chronoception_mode` metadata values.
public enum SessionMode: String, Hashable, Sendable, CaseIterable {
    /// Tap when you think the interval has elapsed; immediate feedback.
    case challenge
    /// Challenge plus an aversive sound after a large error. Opt-in, never the default.
    case fear
    /// The motor marks each interval boundary; no taps.
    case passive

    public init(parsing text: String) throws(ConfigurationError) {
        guard let mode = SessionMode(rawValue: text.lowercased()) else { throw .unknownMode(text) }
        self = mode
    }

    /// Whether the session is made of attempts (Challenge, Fear) rather than boundaries.
    public var usesAttempts: Bool { self != .passive }
}
