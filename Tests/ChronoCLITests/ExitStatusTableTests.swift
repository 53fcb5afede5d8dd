import ChronoCommandLine
import Foundation
import Testing
@testable import ChronoCLI

/// docs/EXIT-CODES.md and `ExitStatus` say the same thing: every status has a row with its name.
@Suite struct ExitStatusTableTests {
    static let table = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/EXIT-CODES.md")

    @Test func everyStatusHasItsRowAndNoRowIsUnknown() throws {
        let text = try String(contentsOf: Self.table, encoding: .utf8)
        var rows: [Int32: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("|") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if cells.count >= 2, let code = Int32(cells[0]) { rows[code] = cells[1] }
        }
        for status in ExitStatus.allCases {
            #expect(rows[status.rawValue] == status.name, "\(status)")
        }
        #expect(Set(rows.keys) == Set(ExitStatus.allCases.map(\.rawValue)))
    }

    @Test func statusesAreDistinct() {
        #expect(Set(ExitStatus.allCases.map(\.rawValue)).count == ExitStatus.allCases.count)
    }
}
