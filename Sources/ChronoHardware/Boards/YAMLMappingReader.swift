import Yams

/// Reads one YAML mapping of a board file key by key, turning every type or range problem into a
/// `BoardFileError` that names the file, the full key path and the line. `finish()` rejects keys that
/// were never asked for, so a typo such as `debounce: 10` is an error, not a silently ignored line.
struct YAMLMappingReader {
    let file: String
    let path: String
    let mark: Mark?
    private let entries: [(key: String, value: Node, mark: Mark?)]
    private var consumed: Set<String> = []

    /// - Parameter keyMark: where the section's key is (`motor:`), so "is missing" points at the section.
    init(node: Node, file: String, path: String, keyMark: Mark? = nil) throws(BoardFileError) {
        self.file = file
        self.path = path
        self.mark = keyMark ?? node.mark
        guard let mapping = node.mapping else {
            throw BoardFileError(file: file, key: path, line: node.mark?.line,
                                 problem: "expected a mapping of keys (key: value lines), got \(Self.describe(node))",
                                 fix: path.isEmpty ? "start the file with `name: <board name>`"
                                     : "write `\(Self.leaf(path)):` followed by indented `key: value` lines")
        }
        var entries: [(String, Node, Mark?)] = []
        for (key, value) in mapping {
            entries.append((key.string ?? "\(key)", value, key.mark))
        }
        self.entries = entries
    }

    func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func error(_ key: String, at node: Node? = nil, _ problem: String, fix: String) -> BoardFileError {
        BoardFileError(file: file, key: keyPath(key), line: (node?.mark ?? mark)?.line, problem: problem, fix: fix)
    }

    /// The value under `key`, nil when absent or explicitly null (`~`, `null`).
    mutating func node(_ key: String) -> Node? {
        consumed.insert(key)
        guard let value = entries.first(where: { $0.key == key })?.value else { return nil }
        if value.scalar != nil, value.isTagged(.null) { return nil }
        return value
    }

    /// "is missing", with "did you mean" when an unknown key in this section is a near spelling of it.
    func missing(_ key: String, fix: String) -> BoardFileError {
        // Near enough to be a typo, far enough that `line` is never taken for `chip`.
        let limit = max(1, key.count / 4)
        let candidates = entries.filter { !consumed.contains($0.key) && $0.key != key && Self.distance($0.key, key) <= limit }
        if let near = candidates.min(by: { Self.distance($0.key, key) < Self.distance($1.key, key) }) {
            return BoardFileError(file: file, key: keyPath(key), line: near.mark?.line,
                                  problem: "is missing, and `\(near.key)` on that line looks like a misspelling of it",
                                  fix: "rename `\(near.key)` to `\(key)`")
        }
        return error(key, "is missing", fix: fix)
    }

    mutating func has(_ key: String) -> Bool {
        entries.contains { $0.key == key }
    }

    mutating func string(_ key: String, default fallback: String? = nil, fix: String) throws(BoardFileError) -> String {
        guard let value = node(key) else {
            if let fallback { return fallback }
            throw missing(key, fix: fix)
        }
        guard let scalar = value.scalar, !scalar.string.isEmpty else {
            throw error(key, at: value, "expected text, got \(Self.describe(value))", fix: fix)
        }
        return scalar.string
    }

    mutating func optionalString(_ key: String, fix: String) throws(BoardFileError) -> String? {
        guard has(key), node(key) != nil else { consumed.insert(key); return nil }
        return try string(key, fix: fix)
    }

    mutating func int(_ key: String, default fallback: Int? = nil, in range: ClosedRange<Int>, unit: String,
                      fix: String) throws(BoardFileError) -> Int {
        guard let value = node(key) else {
            if let fallback { return fallback }
            throw missing(key, fix: fix)
        }
        guard value.isTagged(.int), let number = value.int else {
            throw error(key, at: value, "expected a whole number of \(unit), got \(Self.describe(value))", fix: fix)
        }
        guard range.contains(number) else {
            throw error(key, at: value, "must be between \(range.lowerBound) and \(range.upperBound) \(unit), got \(number)", fix: fix)
        }
        return number
    }

    mutating func double(_ key: String, default fallback: Double, in range: ClosedRange<Double>,
                         fix: String) throws(BoardFileError) -> Double {
        guard let value = node(key) else { return fallback }
        guard value.isTagged(.int) || value.isTagged(.float), let number = value.float else {
            throw error(key, at: value, "expected a number, got \(Self.describe(value))", fix: fix)
        }
        guard range.contains(number) else {
            throw error(key, at: value, "must be between \(range.lowerBound) and \(range.upperBound), got \(number)", fix: fix)
        }
        return number
    }

    mutating func bool(_ key: String, default fallback: Bool, fix: String) throws(BoardFileError) -> Bool {
        guard let value = node(key) else { return fallback }
        guard value.isTagged(.bool), let flag = value.bool else {
            throw error(key, at: value, "expected true or false, got \(Self.describe(value))", fix: fix)
        }
        return flag
    }

    /// One of a fixed set of words.
    mutating func choice<Choice: RawRepresentable>(_ key: String, default fallback: Choice,
                                                   among choices: [Choice]) throws(BoardFileError) -> Choice
    where Choice.RawValue == String {
        guard let value = node(key) else { return fallback }
        let allowed = choices.map(\.rawValue).joined(separator: ", ")
        guard let scalar = value.scalar, let chosen = Choice(rawValue: scalar.string) else {
            throw error(key, at: value, "unknown value \(Self.describe(value))", fix: "use one of: \(allowed)")
        }
        return chosen
    }

    /// A nested mapping, nil when absent or null.
    mutating func mapping(_ key: String) throws(BoardFileError) -> YAMLMappingReader? {
        guard let value = node(key) else { return nil }
        let keyMark = entries.first(where: { $0.key == key })?.mark
        return try YAMLMappingReader(node: value, file: file, path: keyPath(key), keyMark: keyMark)
    }

    /// Rejects keys nobody asked for, suggesting the closest known key.
    func finish() throws(BoardFileError) {
        for entry in entries where !consumed.contains(entry.key) {
            let known = consumed.sorted()
            let suggestion = known.min { Self.distance($0, entry.key) < Self.distance($1, entry.key) }
            let hint = suggestion.flatMap { Self.distance($0, entry.key) <= 3 ? "did you mean `\($0)`? " : nil } ?? ""
            throw BoardFileError(file: file, key: keyPath(entry.key), line: entry.mark?.line,
                                 problem: "unknown key",
                                 fix: "\(hint)Known keys here: \(known.joined(separator: ", "))")
        }
    }

    static func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar):
            if node.isTagged(.null) { return "nothing (null)" }
            return "\"\(scalar.string)\""
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    static func leaf(_ path: String) -> String { path.split(separator: ".").last.map(String.init) ?? path }

    /// Levenshtein distance, for "did you mean".
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

extension Node {
    /// Whether the YAML resolver gave this node the tag (`17` is an int, `"17"` and `GPIO17` are str).
    func isTagged(_ name: Tag.Name) -> Bool { tag.rawValue == name.rawValue }
}
