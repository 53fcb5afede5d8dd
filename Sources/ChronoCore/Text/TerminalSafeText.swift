/// Makes text that came from outside (a file's line, a flag's value, a board's description) safe to
/// print on a terminal: control characters and terminal escapes are shown as `\u{1B}`-style escapes,
/// NUL as `\0`, and each line is cut to a readable length with the number of characters left out. One
/// helper for both programs (the device's and the collector's command lines), used for every error
/// message and every echoed value: a device name or board that reached the collector from a device is
/// as foreign as a line of a file.
public enum TerminalSafeText {
    /// The longest line shown; longer ones keep their start and end.
    public static let maximumLineLength = 600

    /// `text` with control characters escaped and every line shortened to `maximumLineLength`.
    /// Newlines between lines are kept when `keepNewlines` (multi-line messages such as usage).
    public static func sanitized(_ text: String, keepNewlines: Bool = true) -> String {
        if keepNewlines {
            return text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { shortened(escaped(Substring($0))) }.joined(separator: "\n")
        }
        return shortened(escaped(Substring(text)))
    }

    /// A value to quote inside a message: escaped and shortened to `limit` characters.
    public static func quoted(_ value: String, limit: Int = 60) -> String {
        "'" + shortened(escaped(Substring(value)), limit: limit) + "'"
    }

    /// Whether `scalar` is one this type escapes: C0 and C1 controls (tab and newline too), DEL, the
    /// line and paragraph separators and the bidirectional overrides and isolates, which break or
    /// reorder what the reader sees. Also the rule a person's own text is checked against before it is
    /// stored (`SessionNote`), so a stored note prints as it is.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F, 0x80...0x9F: return true
        case 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    private static func escaped(_ text: Substring) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0: result += "\\0"
            case 0x09: result += "\\t"
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case _ where isUnsafe(scalar):
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func shortened(_ line: String, limit: Int = maximumLineLength) -> String {
        guard line.count > limit else { return line }
        let keep = max(limit / 2 - 10, 8)
        let omitted = line.count - 2 * keep
        return String(line.prefix(keep)) + "…(\(omitted) characters)…" + String(line.suffix(keep))
    }
}
