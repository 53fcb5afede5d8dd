import ArgumentParser
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
            print("No board files found. Searched: \(catalog.searchPath.joined(separator: ", "))")
            print("Set CHRONOCEPTION_BOARDS_DIR to the folder that holds them (the repository's boards/).")
            throw ExitCode(2)
        }
        for entry in entries {
            let summary: String
            do {
                summary = try BoardFileParser.load(path: entry.path).description
            } catch {
                summary = "INVALID: run `chronoception board show \(entry.name)`"
            }
            print("\(entry.name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(summary)")
            print("\(String(repeating: " ", count: 23))\(entry.path)")
        }
    }
}

/// `board show B`: the configuration as resolved, defaults included.
struct BoardShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a board's resolved configuration (or why its file is invalid).")

    @Argument(help: "A board name (see `board list`) or a path to a board file.")
    var board: String

    func run() throws {
        let configuration = try loadBoard(board)
        print(BoardDescription(configuration).text)
        for (button, role) in [(configuration.button, "button"), (configuration.secondButton, "second_button")] {
            if let button, let line = BoardDescription.resolution(of: button, role: role) { print(line) }
        }
    }
}

/// Loads a board, printing a precise error and exiting with status 2 when it cannot be used.
func loadBoard(_ nameOrPath: String) throws -> BoardConfiguration {
    do {
        return try BoardCatalog.standard().load(nameOrPath)
    } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        throw ExitCode(2)
    }
}
