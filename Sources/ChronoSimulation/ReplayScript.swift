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
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Substring(rawLine)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if words.isEmpty { continue }
            guard words.count == 2, let value = Int64(words[1]) else {
                throw .malformed(source: source, line: lineNumber, text: String(rawLine))
            }
            guard value >= 0 else { throw .negative(source: source, line: lineNumber, value: value) }
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

    public var description: String {
        switch self {
        case .malformed(let source, let line, let text):
            return "\(source) line \(line): '\(text)' is not an event. \(ReplayScript.grammar)"
        case .negative(let source, let line, let value):
            return "\(source) line \(line): \(value) is before the session start (0). Times count from session start."
        case .outOfOrder(let source, let line, let value, let previous):
            return "\(source) line \(line): \(value) comes before the previous line's \(previous). Sort the events by time."
        }
    }
}
