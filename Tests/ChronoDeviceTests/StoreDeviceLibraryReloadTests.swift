import ChronoTesting
import ChronoCore
import ChronoHardware
import ChronoRuntime
import Foundation
import Synchronization
import Testing
@testable import ChronoDevice

/// SIGHUP's board reload reads the board from where it was first loaded: the file path given to
/// `--board` (a board outside the search path has no name to be found by), and a bad edit keeps the
/// board loaded before.
@Suite("The device library's board reload", .serialized)
struct StoreDeviceLibraryReloadTests {
    static func boardText(longPressMilliseconds: Int) throws -> String {
        let desktop = try #require(BuiltInBoards.files["desktop"])
        return desktop
            .replacingOccurrences(of: "name: desktop", with: "name: elsewhere")
            .replacingOccurrences(of: "long_press_ms: 1500", with: "long_press_ms: \(longPressMilliseconds)")
    }

    @Test("A board given by path is reloaded from that path; a bad edit is said and the old board kept")
    func reloadByPath() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        // A folder that is on no search path, so the board can be found by its path only.
        let path = (scratch.directory as NSString).appendingPathComponent("elsewhere.yaml")
        try Self.boardText(longPressMilliseconds: 1700).write(toFile: path, atomically: true, encoding: .utf8)
        let board = try BoardCatalog.standard().load(path)
        #expect(board.name == "elsewhere" && board.longPressMilliseconds == 1700)
        let said = Mutex<[String]>([])
        let library = StoreDeviceLibrary(store: scratch.store, flags: SessionFlags(), board: board, boardSource: path,
                                         report: { line in said.withLock { $0.append(line) } })
        #expect(library.prepareSnapshot().defaults.gestures.longPress == .milliseconds(1700))

        try Self.boardText(longPressMilliseconds: 2100).write(toFile: path, atomically: true, encoding: .utf8)
        library.reload()
        #expect(said.withLock { $0 } == [])
        #expect(library.prepareSnapshot().defaults.gestures.longPress == .milliseconds(2100))

        try Self.boardText(longPressMilliseconds: 2100).replacingOccurrences(of: "long_press_ms: 2100", with: "long_press_ms: soon")
            .write(toFile: path, atomically: true, encoding: .utf8)
        library.reload()
        let lines = said.withLock { $0 }
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("SIGHUP: the board file \(path) cannot be read (") == true)
        #expect(lines.first?.hasSuffix("keeping the one loaded before.") == true)
        #expect(library.prepareSnapshot().defaults.gestures.longPress == .milliseconds(2100))
    }

    @Test("A board given by name is reloaded by that name")
    func reloadByName() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let said = Mutex<[String]>([])
        let library = StoreDeviceLibrary(store: scratch.store, flags: SessionFlags(), board: try BoardCatalog.standard().load("desktop"),
                                         boardSource: "desktop", report: { line in said.withLock { $0.append(line) } })
        library.reload()
        #expect(said.withLock { $0 } == [])
        #expect(library.prepareSnapshot().defaults.gestures.longPress == .milliseconds(1500))
    }
}
