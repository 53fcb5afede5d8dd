/// The four ways to train (SPEC §2, §10). The raw values are the `chronoception_mode` metadata values.
public enum SessionMode: String, Hashable, Sendable, CaseIterable {
    /// Tap when you think the interval has elapsed; immediate feedback.
    case challenge
    /// Challenge plus an aversive sound after a large error. Opt-in, never the default.
    case fear
    /// The motor marks each interval boundary; no taps.
    case passive
    /// The motor presents the interval (a vibration at its start and one at its end); the person
    /// reproduces it with two presses. The task timing research uses most (docs/REPRODUCTION.md).
    case reproduction

    public init(parsing text: String) throws(ConfigurationError) {
        guard let mode = SessionMode(rawValue: text.lowercased()) else { throw .unknownMode(text) }
        self = mode
    }

    /// Whether the session is made of attempts (Challenge, Fear, Reproduction) rather than boundaries.
    public var usesAttempts: Bool { self != .passive }

    /// The mode's name as a sentence starts it: `Challenge`, `Reproduction`.
    public var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// The modes in words, for messages that list them: "challenge, fear, passive or reproduction".
    public static let listText = "challenge, fear, passive or reproduction"
}
