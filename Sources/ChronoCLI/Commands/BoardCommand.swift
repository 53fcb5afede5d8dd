import ArgumentParser
import ChronoCommandLine
import ChronoCore
import ChronoDevice
import ChronoHardware
import Foundation

/// `chronoception board list | show B | check B`: the board files and the bring-up check.
struct BoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board",
        abstract: "List, show and check board files (the wiring of button, motor and speaker).",
        subcommands: [BoardListCommand.self, BoardShowCommand.self, BoardCheckCommand.self]
    )
}

/// `board list`: every board on the search path.
struct BoardListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the known boards.")

    func run() throws {
        let catalog = BoardCatalog.standard()
        let entries = catalog.list()
        if entries.isEmpty {
            throw CommandFailure(message: "No board files found (searched: \(catalog.searchPath.joined(separator: ", "))). Set CHRONOCEPTION_BOARDS_DIR to the folder that holds them (the repository's boards/).", status: .noInput)
        }
        for entry in entries {
            let summary: String
            do {
                summary = try catalog.load(entry).description
            } catch {
                summary = "INVALID: run `chronoception board show \(entry.name)`"
            }
            print(TerminalSafeText.sanitized("\(entry.name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(summary)", keepNewlines: false))
            print(TerminalSafeText.sanitized("\(String(repeating: " ", count: 23))\(entry.path)", keepNewlines: false))
        }
    }
}

/// `board show B`: the configuration as resolved, defaults included.
struct BoardShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a board's resolved configuration (or why its file is invalid).")

    @Argument(help: "A board name (see `board list`) or a path to a board file.")
    var board: String

    @Flag(help: "Machine-readable output.")
    var json = false

    func run() throws {
        let configuration = try loadBoard(board)
        if json {
            print(BoardDescription(configuration).json.prettyText)
            return
        }
        print(TerminalSafeText.sanitized(BoardDescription(configuration).text))
        for (button, role) in [(configuration.button, "button"), (configuration.secondButton, "second_button")] {
            if let button, let line = BoardDescription.resolution(of: button, role: role) { print(TerminalSafeText.sanitized(line)) }
        }
    }
}

/// Loads a board; a file that cannot be used is a `BoardFileError` (exit status 78), a name that
/// leads nowhere a `BoardNotFoundError` (66).
func loadBoard(_ nameOrPath: String) throws -> BoardConfiguration {
    do {
        return try UsableBoard.load(nameOrPath)
    } catch {
        throw CommandFailure(error)
    }
}
