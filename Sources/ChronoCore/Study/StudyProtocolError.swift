/// One thing wrong in a protocol document: its line (1-based; 0 for the document as a whole) and a
/// sentence naming the problem and the fix.
public struct StudyProtocolProblem: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var message: String

    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    /// `line 12: …`, or the message alone for the document as a whole.
    public var description: String { line > 0 ? "line \(line): \(message)" : message }
}

/// Why a protocol document was refused: every problem the validator found, in line order (a JSON
/// syntax error is the only one reported, since nothing after it can be read).
public struct StudyProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    public var problems: [StudyProtocolProblem]

    public init(problems: [StudyProtocolProblem]) {
        self.problems = problems
    }

    /// One problem a line.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
