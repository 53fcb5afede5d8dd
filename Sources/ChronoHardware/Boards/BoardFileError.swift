/// A board file that cannot be used, said so that the user can fix it: which file, which key (and
/// line when known), what is wrong, and what to write instead.
public struct BoardFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file as the user named or it was found.
    public var file: String
    /// Dotted key path such as `motor.safe_max_on_ms`; empty for whole-file problems.
    public var key: String
    /// 1-based line of the offending value in the file, when known.
    public var line: Int?
    public var problem: String
    public var fix: String

    public init(file: String, key: String, line: Int? = nil, problem: String, fix: String) {
        self.file = file
        self.key = key
        self.line = line
        self.problem = problem
        self.fix = fix
    }

    /// `boards/x.yaml:12: motor.safe_max_on_ms: must be … Fix: …`
    public var description: String {
        let location = line.map { "\(file):\($0)" } ?? file
        let subject = key.isEmpty ? "" : "\(key): "
        return "\(location): \(subject)\(problem). Fix: \(fix)"
    }
}

/// A board name or path that does not lead to a board file.
public struct BoardNotFoundError: Error, Equatable, Sendable, CustomStringConvertible {
    public var name: String
    /// The folders that were searched, in order.
    public var searched: [String]
    /// Boards that do exist, for the message.
    public var available: [String]

    public var description: String {
        let known = available.isEmpty ? "none found" : available.joined(separator: ", ")
        return "No board named \"\(name)\". Searched: \(searched.joined(separator: ", ")). "
            + "Known boards: \(known). Fix: use one of these names, a path to a .yaml file, "
            + "or set CHRONOCEPTION_BOARDS_DIR to the folder that holds your board files."
    }
}
