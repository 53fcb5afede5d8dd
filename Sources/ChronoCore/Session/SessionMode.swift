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
    /// Made from the cases, so a mode added is named everywhere a list of them is printed.
    public static let listText = listed(allCases.map(\.rawValue), last: "or")

    /// The modes made of attempts, by title, for help and labels: "Challenge, Fear and Reproduction".
    public static let attemptModesText = listed(allCases.filter(\.usesAttempts).map(\.title), last: "and")

    /// The modes made of boundaries, by title: "Passive".
    public static let boundaryModesText = listed(allCases.filter { !$0.usesAttempts }.map(\.title), last: "and")

    /// "a, b and c" (`last` joins the final two).
    static func listed(_ names: [String], last: String) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " \(last) " + names[names.count - 1]
    }
}
