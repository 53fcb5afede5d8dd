/// A JSON value with ordered object keys, written without Foundation so that the core can produce
/// exact, stable text (health records, replay output) that diffs cleanly.
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.compactText == rhs.compactText }
    public func hash(into hasher: inout Hasher) { hasher.combine(compactText) }

    public static func int(_ value: Int) -> JSONValue { .int(Int64(value)) }

    /// One line, no spaces: the JSON Lines form.
    public var compactText: String {
        var output = ""
        write(to: &output, indent: nil, level: 0)
        return output
    }

    /// Indented with two spaces, for people.
    public var prettyText: String {
        var output = ""
        write(to: &output, indent: "  ", level: 0)
        return output
    }

    /// The value of a key of an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    private func write(to output: inout String, indent: String?, level: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value): output += JSONValue.numberText(value)
        case .string(let value): JSONValue.writeString(value, to: &output)
        case .array(let items):
            writeContainer(open: "[", close: "]", count: items.count, to: &output, indent: indent, level: level) { index, output in
                items[index].write(to: &output, indent: indent, level: level + 1)
            }
        case .object(let members):
            writeContainer(open: "{", close: "}", count: members.count, to: &output, indent: indent, level: level) { index, output in
                JSONValue.writeString(members[index].0, to: &output)
                output += indent == nil ? ":" : ": "
                members[index].1.write(to: &output, indent: indent, level: level + 1)
            }
        }
    }

    private func writeContainer(
        open: String, close: String, count: Int, to output: inout String, indent: String?, level: Int,
        element: (Int, inout String) -> Void
    ) {
        output += open
        guard count > 0 else { output += close; return }
        for index in 0..<count {
            if index > 0 { output += "," }
            if let indent { output += "\n" + String(repeating: indent, count: level + 1) }
            element(index, &output)
        }
        if let indent { output += "\n" + String(repeating: indent, count: level) }
        output += close
    }

    /// Shortest text that reads back as the same Double; whole values keep a `.0` so that readers see a float.
    static func numberText(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        return value == 0 ? "0.0" : "\(value)"
    }

    static func writeString(_ value: String, to output: inout String) {
        output += "\""
        // Most strings (keys, dates, ids) need no escape: appended whole, not scalar by scalar.
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }) {
            output += value
            output += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

extension JSONValue {
    /// The value JSON `text` holds, members in the order written, or nil when it is not JSON (RFC
    /// 8259, read by the core's own reader). A whole number that fits `Int64` stays exact; any other
    /// number is a `Double`. For embedding JSON another encoder wrote (a Codable record) in a
    /// `JSONValue` document, and under a validator of its own for small documents from outside (the
    /// update record, RAUC's description of a bundle): the reader bounds the nesting.
    public init?(parsing text: String) {
        guard let located = try? LocatedJSON.parse(text) else { return nil }
        self.init(located)
    }

    init(_ located: LocatedJSON) {
        switch located.value {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let text): self = Int64(text).map(JSONValue.int) ?? .double(Double(text) ?? .nan)
        case .string(let value): self = .string(value)
        case .array(let items): self = .array(items.map(JSONValue.init))
        case .object(let members): self = .object(members.map { ($0.key, JSONValue($0.value)) })
        }
    }
}
