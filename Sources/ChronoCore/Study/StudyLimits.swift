/// The bounds of a study protocol, in one place: the validator refuses a document outside them, the
/// collector and the device check what they receive against them. Session values reuse the core's
/// own limits (`TrainingInterval`'s range, `SessionConfiguration.countRange`).
public enum StudyLimits {
    /// A protocol's version: a positive whole number.
    public static let versions = 1...1_000_000
    /// Blocks in a protocol.
    public static let blocks = 1...50
    /// Sessions in one block.
    public static let sessionsPerBlock = 1...1_000
    /// Intervals listed in one block.
    public static let intervalsPerBlock = 1...20
    /// Days a schedule runs.
    public static let days = 1...366
    /// Sessions a schedule holds in one day.
    public static let sessionsPerDay = 1...24
    /// The minimum gap between two sessions, in minutes (up to a day).
    public static let minimumGapMinutes = 0...1_440
    /// Sessions in a whole plan: the schedule's days × sessions per day at most.
    public static let planSessions = days.upperBound * sessionsPerDay.upperBound
    /// Characters of the consent text.
    public static let consentCharacters = 1...4_000
    /// Characters of a protocol document (JSON text).
    public static let documentCharacters = 256 * 1024
    /// A shuffle seed: 0 to 2⁵³ − 1, exact in every JSON reader.
    public static let seeds: ClosedRange<Int64> = 0...((1 << 53) - 1)
}

/// The two kinds of names in a study. A protocol's and a block's name are identifiers people type in
/// commands (`protocol assign sleep-2026@2`): letters, digits, `-`, `_` and `.`. A participant and a
/// condition label are labels: 1 to 64 printable characters without surrounding spaces, as the
/// collector's device and participant names are.
public enum StudyNames {
    public static let maximumLength = 64

    /// Why `text` is not an identifier, or nil.
    public static func problem(_ text: String, what: String) -> String? {
        let allowed = text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar))
        }
        guard !text.isEmpty, text.count <= maximumLength, allowed else {
            return "\(what) '\(TerminalSafeText.sanitized(text, keepNewlines: false).prefix(80))' is not a name: use 1 to \(maximumLength) letters, digits, '-', '_' or '.', e.g. sleep-2026"
        }
        return nil
    }

    /// Why `text` is not a label, or nil.
    public static func labelProblem(_ text: String, what: String) -> String? {
        // The one text rule notes use too (`TerminalSafeText.isUnsafe`): no controls, line breaks or
        // text-direction marks such as U+202E, which would reorder what a page, a terminal or a CSV cell shows.
        guard !text.isEmpty, text.count <= maximumLength, text.trimmingWhitespace == text,
              !text.unicodeScalars.contains(where: TerminalSafeText.isUnsafe) else {
            return "\(what) '\(TerminalSafeText.sanitized(text, keepNewlines: false).prefix(80))' is not a label: use 1 to \(maximumLength) printable characters without spaces at the ends, e.g. P017"
        }
        return nil
    }
}
