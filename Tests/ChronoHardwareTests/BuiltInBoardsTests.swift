import Foundation
import Testing
@testable import ChronoHardware

/// The built-in boards travel with the binary: with nothing on the search path `desktop` still loads,
/// a file on the search path wins over the embedded one, and the embedded text is boards/ as it is.
@Suite struct BuiltInBoardsTests {
    @Test func desktopResolvesWithAnEmptySearchPath() throws {
        let catalog = BoardCatalog(searchPath: [])
        let board = try catalog.load("desktop")
        #expect(board.name == "desktop")
        #expect(board.sourcePath == "(built in)/desktop.yaml")
        #expect(board.description == "Linux desktop, keyboard as the button, terminal as the motor, default ALSA device")
    }

    @Test func everyBuiltInBoardIsListedAndLoads() throws {
        let catalog = BoardCatalog(searchPath: ["/nonexistent-chronoception-boards"])
        let entries = catalog.list()
        #expect(entries.map(\.name) == ["desktop", "keyboard", "raspberry-pi-3b", "raspberry-pi-4b", "raspberry-pi-5", "raspberry-pi-zero-2w", "usb-foot-switch"])
        #expect(entries.allSatisfy { $0.isBuiltIn && $0.path == "(built in)/\($0.name).yaml" })
        for entry in entries {
            #expect(try catalog.load(entry).name == entry.name)
            #expect(try catalog.load(entry.name).name == entry.name)
        }
    }

    /// Model strings as real device trees give them (Raspberry Pi OS's and Debian's DTBs alike).
    @Test func aRaspberryPiIsKnownByItsDeviceTreeModel() {
        let models: [(String, String?)] = [
            ("Raspberry Pi 5 Model B Rev 1.0\0", "raspberry-pi-5"),
            ("Raspberry Pi 4 Model B Rev 1.4", "raspberry-pi-4b"),
            ("Raspberry Pi Zero 2 W Rev 1.0", "raspberry-pi-zero-2w"),
            ("Raspberry Pi 3 Model B Rev 1.2", "raspberry-pi-3b"),
            ("Raspberry Pi 3 Model B Plus Rev 1.3", "raspberry-pi-3b"),
            ("Raspberry Pi 3 Model A Plus Rev 1.0", "raspberry-pi-3b"),
            ("Raspberry Pi Zero W Rev 1.1", nil),
            ("", nil),
        ]
        for (model, board) in models {
            #expect(BoardCatalog.boardName(forDeviceTreeModel: model) == board, "\(model)")
        }
    }

    @Test func aFileOnTheSearchPathWinsOverTheBuiltInBoard() throws {
        let folder = try TemporaryFolder()
        let own = try String(contentsOfFile: BoardFileTests.boardsFolder + "/desktop.yaml", encoding: .utf8)
            .replacingOccurrences(of: "description: Linux desktop, keyboard as the button, terminal as the motor, default ALSA device",
                                  with: "description: my own desktop")
        try own.write(toFile: folder.path + "/desktop.yaml", atomically: true, encoding: .utf8)
        let catalog = BoardCatalog(searchPath: [folder.path])
        let board = try catalog.load("desktop")
        #expect(board.description == "my own desktop")
        #expect(board.sourcePath == folder.path + "/desktop.yaml")
        let listed = try #require(catalog.list().first { $0.name == "desktop" })
        #expect(listed == BoardCatalog.Entry(name: "desktop", path: folder.path + "/desktop.yaml", isBuiltIn: false))
        #expect(try catalog.load(listed).description == "my own desktop")
    }

    @Test func anUnknownNameOrAMissingPathIsStillNotFound() {
        let catalog = BoardCatalog(searchPath: [])
        #expect(throws: BoardNotFoundError.self) { try catalog.load("pi9") }
        // A path is a file on disk, never the built-in board of its stem.
        #expect(throws: BoardNotFoundError.self) { try catalog.load("./desktop.yaml") }
        do {
            _ = try catalog.load("pi9")
        } catch let error as BoardNotFoundError {
            #expect(error.available == ["desktop", "keyboard", "raspberry-pi-3b", "raspberry-pi-4b", "raspberry-pi-5", "raspberry-pi-zero-2w", "usb-foot-switch"])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// The generated file is boards/ as it is (scripts/embed-boards --check says the same in CI).
    @Test func theEmbeddedTextIsTheRepositorysBoardFiles() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: BoardFileTests.boardsFolder).filter { $0.hasSuffix(".yaml") }
        #expect(Set(files.map { String($0.dropLast(5)) }) == Set(BuiltInBoards.files.keys))
        for file in files {
            let text = try String(contentsOfFile: BoardFileTests.boardsFolder + "/" + file, encoding: .utf8)
            var trimmed = Substring(text)
            while trimmed.hasSuffix("\n") { trimmed = trimmed.dropLast() }
            #expect(BuiltInBoards.files[String(file.dropLast(5))] == String(trimmed), "run scripts/embed-boards: \(file) changed")
        }
    }
}
