/// JSON text read into values that remember their line, so the protocol validator can say "line 12:"
/// for any field it refuses. The core imports nothing (no Foundation), hence its own reader; it reads
/// RFC 8259 JSON exactly (no comments, no trailing commas) and refuses a repeated key in an object,
/// which JSON readers otherwise resolve silently one way or the other.
struct LocatedJSON: Sendable {
    indirect enum Value: Sendable {
        case null
        case bool(Bool)
        /// The number's text as written, so whole numbers stay exact.
        case number(String)
        case string(String)
        case array([LocatedJSON])
        case object([Member])
    }

    /// An object's member with the line of its key.
    struct Member: Sendable {
        var key: String
        var line: Int
        var value: LocatedJSON
    }

    var value: Value
    /// The 1-based line where the value begins.
    var line: Int

    /// What the reader could not read, and where.
    struct SyntaxError: Error, Sendable {
        var line: Int
        var message: String
    }

    /// The JSON kind, for messages ("a number", "a list").
    var kindName: String {
        switch value {
        case .null: return "null"
        case .bool: return "true or false"
        case .number: return "a number"
        case .string: return "text"
        case .array: return "a list"
        case .object: return "an object"
        }
    }

    static func parse(_ text: String) throws(SyntaxError) -> LocatedJSON {
        var reader = Reader(bytes: Array(text.utf8))
        reader.skipByteOrderMark()
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.index == reader.bytes.count else {
            throw SyntaxError(line: reader.line, message: "more text after the document's closing brace; remove it, or put everything inside one { … }")
        }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        static let maximumDepth = 32

        mutating func skipByteOrderMark() {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\n"): line += 1
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): break
                default: return
                }
                index += 1
            }
        }

        func fail(_ message: String) -> SyntaxError { SyntaxError(line: line, message: message) }

        var found: String {
            guard index < bytes.count else { return "the end of the file" }
            let byte = bytes[index]
            if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            return "a character that cannot start a value"
        }

        mutating func value(depth: Int) throws(SyntaxError) -> LocatedJSON {
            guard depth < Self.maximumDepth else { throw fail("the document nests deeper than \(Self.maximumDepth) levels; a protocol needs four") }
            guard index < bytes.count else { throw fail("the file ends where a value should be; finish the document") }
            let startLine = line
            switch bytes[index] {
            case UInt8(ascii: "{"): return LocatedJSON(value: .object(try object(depth: depth)), line: startLine)
            case UInt8(ascii: "["): return LocatedJSON(value: .array(try array(depth: depth)), line: startLine)
            case UInt8(ascii: "\""): return LocatedJSON(value: .string(try string()), line: startLine)
            case UInt8(ascii: "t"): try literal("true"); return LocatedJSON(value: .bool(true), line: startLine)
            case UInt8(ascii: "f"): try literal("false"); return LocatedJSON(value: .bool(false), line: startLine)
            case UInt8(ascii: "n"): try literal("null"); return LocatedJSON(value: .null, line: startLine)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return LocatedJSON(value: .number(try number()), line: startLine)
            case UInt8(ascii: "'"): throw fail("text is in single quotes; JSON puts text in double quotes (\"…\")")
            default: throw fail("expected a value (text in double quotes, a number, true, false, a list or an object), found \(found)")
            }
        }

        mutating func literal(_ word: String) throws(SyntaxError) {
            let expected = Array(word.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw fail("expected \(word), found \(found); text goes in double quotes")
            }
            index += expected.count
        }

        mutating func number() throws(SyntaxError) -> String {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            func digits(_ reader: inout Reader) -> Int {
                let from = reader.index
                while reader.index < reader.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(reader.bytes[reader.index]) { reader.index += 1 }
                return reader.index - from
            }
            let whole = index
            guard digits(&self) > 0 else { throw fail("a minus sign must be followed by digits") }
            if bytes[whole] == UInt8(ascii: "0"), index - whole > 1 { throw fail("a number does not start with 0 (write 7, not 07)") }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits(&self) > 0 else { throw fail("a decimal point must be followed by digits (write 0.5, not 0.)") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits(&self) > 0 else { throw fail("an exponent must have digits") }
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        mutating func string() throws(SyntaxError) -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var run = index
            func flush(_ reader: Reader, upTo end: Int) {
                scalars.append(contentsOf: String(decoding: reader.bytes[run..<end], as: UTF8.self).unicodeScalars)
            }
            while true {
                guard index < bytes.count else { throw fail("text is not closed; add the closing double quote") }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    flush(self, upTo: index)
                    index += 1
                    return String(scalars)
                }
                if byte < 0x20 {
                    throw fail(byte == UInt8(ascii: "\n")
                        ? "text runs past the end of the line; close it with a double quote, and write a line break inside text as \\n"
                        : "text holds a control character; write it as an escape such as \\t")
                }
                guard byte == UInt8(ascii: "\\") else { index += 1; continue }
                flush(self, upTo: index)
                index += 1
                guard index < bytes.count else { throw fail("text is not closed; add the closing double quote") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw fail("\\u escape of a lone surrogate; write the character itself")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("\\u escape of a lone surrogate; write the character itself") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw fail("\\u escape of a lone surrogate; write the character itself") }
                    scalars.append(scalar)
                default:
                    throw fail("'\\\(Character(Unicode.Scalar(escape)))' is not an escape; write a backslash as \\\\")
                }
                run = index
            }
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard bytes.count - index >= 4, let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
                throw fail("\\u needs four hexadecimal digits")
            }
            index += 4
            return code
        }

        mutating func array(depth: Int) throws(SyntaxError) -> [LocatedJSON] {
            index += 1
            var items: [LocatedJSON] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return items }
            while true {
                skipWhitespace()
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw fail("the list is not closed; add ]") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    skipWhitespace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: "]") { throw fail("a comma before ] ; remove the last comma") }
                    continue
                }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return items }
                throw fail("expected , or ] after a list item, found \(found)")
            }
        }

        mutating func object(depth: Int) throws(SyntaxError) -> [Member] {
            index += 1
            var members: [Member] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return members }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw fail("expected a key in double quotes, found \(found)")
                }
                let keyLine = line
                let key = try string()
                if members.contains(where: { $0.key == key }) {
                    throw SyntaxError(line: keyLine, message: "\"\(TerminalSafeText.sanitized(key, keepNewlines: false).prefix(40))\" appears twice in this object; keep one")
                }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected : after the key, found \(found)") }
                index += 1
                skipWhitespace()
                members.append(Member(key: key, line: keyLine, value: try value(depth: depth + 1)))
                skipWhitespace()
                guard index < bytes.count else { throw fail("the object is not closed; add }") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    skipWhitespace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: "}") { throw fail("a comma before } ; remove the last comma") }
                    continue
                }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return members }
                throw fail("expected , or } after a value, found \(found); is a comma missing?")
            }
        }
    }
}
