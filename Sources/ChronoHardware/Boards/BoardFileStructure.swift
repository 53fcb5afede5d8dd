// Yams keeps libyaml as a target of its own package, not a product; its module is on every dependent's
// search path all the same, and its event parser is the only way to see anchors and aliases before
// Yams composes (and hashes) the nodes they expand to.
internal import CYaml

/// The bounds a board file's YAML must keep before Yams composes it: a size, a nesting depth, and no
/// anchors (`&name`) or aliases (`*name`). A board file never needs either, and an alias expands to a
/// copy of what it names: nine levels of aliases in a mapping key are 10⁹ nodes for Yams to hash, so
/// `board show`, `board list`, `run --board` and a reload would hang on a 697-byte file. One pass over
/// libyaml's events (linear in the text, nothing expanded) refuses them first.
enum BoardFileStructure {
    /// Board files are a few hundred bytes; 64 KiB is a hundred times the largest one shipped.
    static let maximumBytes = 65_536

    /// Sections nested inside the top mapping: a board needs two levels (`motor:` then its keys).
    static let maximumDepth = 8

    /// Refuses `text` when it is too large, nests too deep, or holds an anchor or an alias. A syntax
    /// error is left to Yams, which stops at the same event with its own message: everything before it
    /// has passed this check.
    static func check(_ text: String, file: String) throws(BoardFileError) {
        let size = text.utf8.count
        guard size <= maximumBytes else {
            throw BoardFileError(file: file, key: "", problem: "is \(size) bytes, larger than 64 KiB (\(maximumBytes) bytes); board files are a few hundred bytes",
                                 fix: "give the right file, or start again from boards/desktop.yaml")
        }
        var bytes = Array(text.utf8)
        if let refusal = bytes.withUnsafeMutableBufferPointer({ firstRefusal(in: $0, file: file) }) { throw refusal }
    }

    private static func firstRefusal(in buffer: UnsafeMutableBufferPointer<UInt8>, file: String) -> BoardFileError? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            return BoardFileError(file: file, key: "", problem: "could not be read: the YAML reader could not start (out of memory?)",
                                  fix: "try again; if it persists, report this as a bug")
        }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
        var depth = 0
        while true {
            var event = yaml_event_t()
            // A syntax error: Yams reports it (with its line) when it reaches the same place.
            guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
            defer { yaml_event_delete(&event) }
            let line = Int(event.start_mark.line) + 1
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return nil
            case YAML_ALIAS_EVENT:
                return aliasRefusal(file: file, line: line, name: name(event.data.alias.anchor, sigil: "*"))
            case YAML_SCALAR_EVENT:
                if let anchor = event.data.scalar.anchor { return anchorRefusal(file: file, line: line, name: name(anchor, sigil: "&")) }
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                let anchor = event.type == YAML_SEQUENCE_START_EVENT ? event.data.sequence_start.anchor : event.data.mapping_start.anchor
                if let anchor { return anchorRefusal(file: file, line: line, name: name(anchor, sigil: "&")) }
                depth += 1
                // The top mapping is level 1; its sections are level 2.
                if depth > maximumDepth + 1 {
                    return BoardFileError(file: file, key: "", line: line,
                                          problem: "nests sections more than \(maximumDepth) levels deep; a board file has two (a section such as `motor:`, then its keys)",
                                          fix: "write each section as `name:` followed by indented `key: value` lines (see boards/raspberry-pi-4b.yaml)")
                }
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                depth -= 1
            default:
                break
            }
        }
    }

    private static func aliasRefusal(file: String, line: Int, name: String) -> BoardFileError {
        BoardFileError(file: file, key: "", line: line,
                       problem: "uses a YAML alias (\(name)); board files do not take anchors or aliases",
                       fix: "write the value itself where the alias is, and remove the anchor (`&…`) it refers to")
    }

    private static func anchorRefusal(file: String, line: Int, name: String) -> BoardFileError {
        BoardFileError(file: file, key: "", line: line,
                       problem: "defines a YAML anchor (\(name)); board files do not take anchors or aliases",
                       fix: "remove the anchor, and write the value itself wherever an alias (`*…`) refers to it")
    }

    /// The anchor's name as the file writes it, when it is short plain text; else the sigil alone (the
    /// name is the file's, so nothing unprintable or long is echoed).
    private static func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?, sigil: String) -> String {
        guard let pointer else { return sigil + "…" }
        let bytes = UnsafeBufferPointer(start: pointer, count: strlen(pointer))
        let plain = bytes.count <= 32 && bytes.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F || byte == 0x2D
        }
        return plain && !bytes.isEmpty ? sigil + String(decoding: bytes, as: UTF8.self) : sigil + "…"
    }
}

private func strlen(_ pointer: UnsafeMutablePointer<yaml_char_t>) -> Int {
    var count = 0
    while pointer[count] != 0 { count += 1 }
    return count
}
