import ChronoCore
import ChronoDevice
import ChronoHardware
import Foundation
import Testing

/// A board is its file's name, and that name is every session's board: a board whose sessions the
/// store (and a collector) would refuse is refused when it is loaded, naming the fix.
@Suite("Usable board: its name can be a session's board")
struct UsableBoardTests {
    static func boardFile(named stem: String) throws -> String {
        let desktop = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../boards/desktop.yaml")
        let text = try String(contentsOf: desktop, encoding: .utf8).replacingOccurrences(of: "\nname: desktop\n", with: "\nname: \(stem)\n")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("usable-board-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("\(stem).yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a 64-character name loads; a 65-character one is refused with the store's words and the fix")
    func theNameIsBoundedAsASessionsBoard() throws {
        let longest = String(repeating: "b", count: SessionValidation.maximumBoardLength)
        #expect(try UsableBoard.load(try Self.boardFile(named: longest)).name == longest)

        let path = try Self.boardFile(named: longest + "c")
        #expect(try BoardCatalog.standard().load(path).name == longest + "c")  // the file itself is a board
        #expect(throws: BoardFileError(file: path, key: "name",
                                       problem: "cannot name a session's board: the board name is 65 characters long; it must be 1 to 64",
                                       fix: "rename the board file and its `name:` to at most 64 characters without control characters or text-direction marks")) {
            try UsableBoard.load(path)
        }
    }
}
