/// A person's short note on a session ("tired", "after coffee"): the one validator every note passes
/// before it is stored or accepted — the CLI's `note`, the API's `PATCH /sessions/{id}`, the store
/// when it saves and reads one, and a collector on a sync batch — so a note one end keeps is one every
/// other end accepts.
///
/// The rules: surrounding whitespace is trimmed and an empty note is no note (`nil`); at most
/// `maximumLength` characters, counted as Swift's `Character` (an extended grapheme cluster: what a
/// person counts as one letter, so "é" and "👍🏽" are one each whatever their Unicode scalars), and
/// at most `maximumUTF8Bytes` bytes of UTF-8 (a bound on storage that 200 characters, even emoji, never
/// reach: it only stops a "character" stacked with hundreds of combining marks); no character that
/// `TerminalSafeText` would escape (controls including tab and line breaks, the line separators and
/// the bidirectional overrides), so a note prints on a terminal and sits in a CSV cell as it is. A
/// note is one line. A note that starts like a spreadsheet formula (`=`, `+`, `-`, `@`) is accepted:
/// it is a person's text, and `CSVText` neutralises it in every export.
public enum SessionNote {
    /// The most characters a note holds.
    public static let maximumLength = 200
    /// The most bytes of UTF-8 a note holds.
    public static let maximumUTF8Bytes = 8_000

    /// `text` trimmed, or nil when nothing is left (no note); throws the rule it breaks otherwise.
    public static func validated(_ text: String?) throws(SessionNoteViolation) -> String? {
        guard let text else { return nil }
        let trimmed = text.trimmingWhitespace
        guard !trimmed.isEmpty else { return nil }
        if let unsafe = trimmed.unicodeScalars.first(where: TerminalSafeText.isUnsafe) {
            throw SessionNoteViolation(message: "The note holds \(name(of: unsafe)); write it on one line with ordinary characters.")
        }
        guard trimmed.count <= maximumLength else {
            throw SessionNoteViolation(message: "The note is \(trimmed.count) characters long; a note holds at most \(maximumLength). Shorten it.")
        }
        guard trimmed.utf8.count <= maximumUTF8Bytes else {
            throw SessionNoteViolation(message: "The note is \(trimmed.utf8.count) bytes long in UTF-8 (characters stacked with many accents); a note holds at most \(maximumUTF8Bytes). Shorten it.")
        }
        return trimmed
    }

    /// The refused character in words, for the error message.
    static func name(of scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x0A, 0x0D, 0x2028, 0x2029: return "a line break"
        case 0x09: return "a tab"
        case 0x202A...0x202E, 0x2066...0x2069: return "an invisible text-direction mark (U+\(hex(scalar)))"
        default: return "a control character (U+\(hex(scalar)))"
        }
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// A note refused by `SessionNote`: the stable code `session_note` (the API's 422, a collector's
/// refused batch) and a sentence naming the fix.
public struct SessionNoteViolation: Error, Hashable, Sendable, CustomStringConvertible {
    /// Always `session_note` (`SessionRule.note`).
    public static let code = SessionRule.note.rawValue
    public var message: String

    public init(message: String) {
        self.message = message
    }

    public var description: String { message }
}
