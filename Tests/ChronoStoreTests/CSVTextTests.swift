import ChronoCore
@testable import ChronoStore
import ChronoSync
import Testing

/// CSV cells from outside cannot become formulas (OWASP "CSV Injection"); the program's numbers stay
/// numbers. Exact strings, since a spreadsheet reads the bytes.
@Suite struct CSVTextTests {
    @Test(arguments: [
        ("=HYPERLINK(\"http://x\",\"y\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""),
        ("@SUM(A1:A2)", "\"'@SUM(A1:A2)\""),
        ("+1+1", "\"'+1+1\""),
        ("-1+cmd|' /C calc'!A0", "\"'-1+cmd|' /C calc'!A0\""),
        ("\tpi", "\"'\tpi\""),
        ("\r=1", "\"'\r=1\""),
        ("-", "\"'-\""),
        ("-e5", "\"'-e5\""),
        ("-1.", "\"'-1.\""),
    ])
    func formulaLeadingCellsAreQuotedText(cell: String, written: String) {
        #expect(CSVText.field(cell) == written)
    }

    @Test(arguments: ["-120", "-0.25", "-1.5e-05", "-3E+2", "120", "0.5", "pi-zero-2w", "a=b", "", "2026-11-25T21:00:00+01:00"])
    func numbersAndOrdinaryTextAreUnchanged(cell: String) {
        #expect(CSVText.field(cell) == cell)
    }

    @Test func rfc4180QuotingStillApplies() {
        #expect(CSVText.field("bench, \"v2\"") == "\"bench, \"\"v2\"\"\"")
        #expect(CSVText.record(["=1", "-120", "P017"]) == "\"'=1\",-120,P017\r\n")
    }

    @Test func theDevicesExportNeutralisesABoardButKeepsSignedErrors() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try store.recordSessionFinished(Sample.finish("5d1c7a4e-2b3f-4c5d-8e9f-0a1b2c3d4e5f", Sample.attempts(.challenge, [58]), board: "=HYPERLINK(\"http://x\")"),
                                        nowUnixNanoseconds: Sample.now)
        var text = ""
        try store.exportCSV(days: nil, nowUnixNanoseconds: Sample.now) { text += $0 }
        let row = try #require(text.components(separatedBy: "\r\n").dropFirst().first)
        #expect(row.contains(",\"'=HYPERLINK(\"\"http://x\"\")\","))
        let signed = ChronoStore.csvColumns.firstIndex(of: "signed_error_seconds")!
        // The board has no comma, so splitting on commas keeps the columns.
        #expect(row.split(separator: ",", omittingEmptySubsequences: false)[signed].hasPrefix("-"))
    }
}
