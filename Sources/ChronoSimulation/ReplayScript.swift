import ChronoCore

/// The input of `chronoception replay`: one event per line, monotonic nanoseconds from session start.
///
/// ```
/// # comments and blank lines are allowed
/// press 1000000000
/// release 1150000000
/// sound-lost 20000000000
/// sound-restored 30000000000
/// end 400000000000
/// ```
/// Times must not go backwards; the order of lines with the same time is kept.
public struct ReplayScript: Sendable {
    public var events: [SessionEvent]

    public init(events: [SessionEvent]) {
        self.events = events
    }

    public static let grammar = "Each line is 'press <ns>', 'release <ns>', 'sound-lost <ns>', 'sound-restored <ns>' or 'end <ns>', with <ns> the monotonic nanoseconds since session start (a whole number, 0 or more)."

    public static func parse(_ text: String, source: String = "edge file") throws(ReplayScriptError) -> ReplayScript {
        var events: [SessionEvent] = []
        var previous: Int64 = 0
        var lineNumber = 0
        // "\r\n" is one Character in Swift, so splitting on "\n" alone would see a CRLF file as one line.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            lineNumber += 1
            var line = Substring(rawLine)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if words.isEmpty { continue }
            if words.count == 2, Int64(words[1]) == nil, words[1].allSatisfy({ $0.isASCII && $0.isNumber }) {
                throw .tooLate(source: source, line: lineNumber, text: String(words[1]))
            }
            guard words.count == 2, let value = Int64(words[1]) else {
                throw .malformed(source: source, line: lineNumber, text: String(rawLine))
            }
            guard value >= 0 else { throw .negative(source: source, line: lineNumber, value: value) }
            guard TimeLimits.isAcceptedMonotonic(nanoseconds: value) else {
                throw .tooLate(source: source, line: lineNumber, text: String(value))
            }
            guard value >= previous else {
                throw .outOfOrder(source: source, line: lineNumber, value: value, previous: previous)
            }
            previous = value
            let at = MonotonicInstant(nanoseconds: value)
            switch words[0].lowercased() {
            case "press": events.append(.button(RawButtonEdge(pressed: true, at: at)))
            case "release": events.append(.button(RawButtonEdge(pressed: false, at: at)))
            case "sound-lost": events.append(.soundLost(at: at))
            case "sound-restored": events.append(.soundRestored(at: at))
            case "end": events.append(.endRequested(at: at))
            default: throw .malformed(source: source, line: lineNumber, text: String(rawLine))
            }
        }
        return ReplayScript(events: events)
    }
}

/// Why an edge file could not be read; the message names the file, the line and the fix.
public enum ReplayScriptError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(source: String, line: Int, text: String)
    case negative(source: String, line: Int, value: Int64)
    case outOfOrder(source: String, line: Int, value: Int64, previous: Int64)
    /// A time past `TimeLimits.maximumMonotonicNanoseconds` (100 years), which nothing can compute with.
    case tooLate(source: String, line: Int, text: String)
    /// The input is not text.
    case notText(source: String)

    public var description: String {
        switch self {
        case .malformed(let source, let line, let text):
            let shown = text.count > 80 ? String(text.prefix(60)) + "… (\(text.count) characters)" : text
            return "\(source) line \(line): '\(shown)' is not an event. \(ReplayScript.grammar)"
        case .tooLate(let source, let line, let text):
            let shown = text.count > 30 ? String(text.prefix(20)) + "…" : text
            return "\(source) line \(line): \(shown) ns is out of range: times go from 0 to \(TimeLimits.maximumMonotonicNanoseconds) ns (100 years) after session start."
        case .notText(let source):
            return "\(source) is not UTF-8 text. \(ReplayScript.grammar)"
        case .negative(let source, let line, let value):
            return "\(source) line \(line): \(value) is before the session start (0). Times count from session start."
        case .outOfOrder(let source, let line, let value, let previous):
            return "\(source) line \(line): \(value) comes before the previous line's \(previous). Sort the events by time."
        }
    }
}
