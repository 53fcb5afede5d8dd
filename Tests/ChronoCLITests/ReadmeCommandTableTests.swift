import ArgumentParser
import Foundation
import Testing
@testable import ChronoCLI

/// README's command table lists exactly the commands `chronoception help` shows (hidden ones excluded),
/// and each command group's subcommands it names exist.
@Suite struct ReadmeCommandTableTests {
    /// The first column of README's "## Commands" table: each backticked entry, split into words.
    static func readmeEntries() throws -> [[String]] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let start = text.range(of: "## Commands\n") else { return [] }
        var entries: [[String]] = []
        for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { break }
            guard line.hasPrefix("| `") else { continue }
            let firstColumn = line.dropFirst(2).prefix { $0 != "|" }
            for piece in firstColumn.split(separator: "`").enumerated() where piece.offset % 2 == 0 {
                entries.append(piece.element.split(separator: " ").map(String.init))
            }
        }
        return entries
    }

    static func visible(_ commands: [ParsableCommand.Type]) -> [String: ParsableCommand.Type] {
        var names: [String: ParsableCommand.Type] = [:]
        for command in commands where command.configuration.shouldDisplay {
            names[command.configuration.commandName ?? String(describing: command).lowercased()] = command
        }
        return names
    }

    @Test func theTableMatchesHelp() throws {
        let entries = try Self.readmeEntries()
        #expect(!entries.isEmpty)
        let commands = Self.visible(Chronoception.configuration.subcommands)
        let documented = Set(entries.compactMap(\.first))
        #expect(documented == Set(commands.keys), "README lists \(documented.sorted()); help shows \(commands.keys.sorted())")
        // `health status / enable / …`, `export csv`, `bench timing`: each named subcommand exists.
        for entry in entries where entry.count > 1 {
            guard let command = commands[entry[0]], !command.configuration.subcommands.isEmpty else { continue }
            let subcommands = Set(Self.visible(command.configuration.subcommands).keys)
            for word in entry.dropFirst() where word.first?.isLetter == true && word == word.lowercased() && !["FILE", "B"].contains(word) {
                #expect(subcommands.contains(word), "README names `\(entry.joined(separator: " "))`, but \(entry[0]) has \(subcommands.sorted())")
            }
        }
    }
}
