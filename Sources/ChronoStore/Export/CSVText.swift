/// RFC 4180 CSV: fields separated by commas, records by CRLF; a field containing a comma, a double
/// quote, CR or LF is enclosed in double quotes with inner quotes doubled.
public enum CSVText {
    public static func field(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingQuotes + "\""
    }

    public static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }
}

extension String {
    fileprivate var replacingQuotes: String {
        var result = ""
        for character in self {
            if character == "\"" { result += "\"\"" } else { result.append(character) }
        }
        return result
    }
}
