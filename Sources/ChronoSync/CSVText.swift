/// RFC 4180 CSV: fields separated by commas, records by CRLF; a field containing a comma, a double
/// quote, CR or LF is enclosed in double quotes with inner quotes doubled.
///
/// Every export (the device's `export csv`, the companion's `/api/v1/export.csv`, the collector's CSV)
/// writes its records here, so one rule keeps a spreadsheet from running a cell as a formula (OWASP,
/// "CSV Injection"): a cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return gets a
/// leading single quote and is enclosed in double quotes — a device name of `=HYPERLINK(…)` opens as the
/// text `'=HYPERLINK(…)`. A cell that is a plain decimal number (`-120`, `-0.25`, `-1.5e-05`) is left as
/// it is: the program's own signed columns stay numbers, and a number is never a formula.
public enum CSVText {
    public static func field(_ value: String) -> String {
        if startsLikeAFormula(value) && !isPlainNumber(value) {
            return "\"'" + value.replacingQuotes + "\""
        }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingQuotes + "\""
    }

    public static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    /// The most text handed to a sink at once, about: exports stream in chunks of this size instead of
    /// building a whole file in memory.
    public static let chunkBytes = 65_536

    /// Writes the header record, then every item's records, to `sink` in chunks of about `chunkBytes`:
    /// the one writer of every CSV export (the device's, the companion's, the collector's, the tidy one).
    public static func write<Items: Sequence>(header: [String], _ items: Items, rows: (Items.Element) -> [[String]],
                                              to sink: (String) throws -> Void) rethrows {
        try sink(record(header))
        var chunk = ""
        for item in items {
            for row in rows(item) { chunk += record(row) }
            if chunk.utf8.count > chunkBytes { try sink(chunk); chunk = "" }
        }
        if !chunk.isEmpty { try sink(chunk) }
    }

    /// The first character is one a spreadsheet reads as the start of a formula (OWASP's list).
    static func startsLikeAFormula(_ value: String) -> Bool {
        guard let first = value.unicodeScalars.first else { return false }
        return first == "=" || first == "+" || first == "-" || first == "@" || first == "\t" || first == "\r"
    }

    /// `-`? digits, then optionally `.` digits, then optionally `e`/`E`, a sign and digits: what the
    /// program writes for a number, and nothing a spreadsheet could evaluate.
    static func isPlainNumber(_ value: String) -> Bool {
        var scalars = Substring(value).unicodeScalars
        func digits() -> Int {
            var count = 0
            while let scalar = scalars.first, ("0"..."9").contains(scalar) { scalars.removeFirst(); count += 1 }
            return count
        }
        if scalars.first == "-" { scalars.removeFirst() }
        guard digits() > 0 else { return false }
        if scalars.first == "." {
            scalars.removeFirst()
            guard digits() > 0 else { return false }
        }
        if scalars.first == "e" || scalars.first == "E" {
            scalars.removeFirst()
            if scalars.first == "-" || scalars.first == "+" { scalars.removeFirst() }
            guard digits() > 0 else { return false }
        }
        return scalars.isEmpty
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
