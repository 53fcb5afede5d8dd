import Foundation
import Testing

/// A mistyped board with a new `--data-dir`: the board file is read before the store is created, so
/// the command fails with the board's own message and leaves no new data directory behind.
@Suite("A bad board leaves no new data directory")
struct BadBoardDataDirectoryTests {
    @Test("run and challenge on an unknown board or a file that is no board: the error, and no directory")
    func nothingCreated() throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("bad-board-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let unknown = try FullDiskCommandTests.run(binary, ["run", "--board", "nosuchboard", "--no-api", "--no-realtime", "--data-dir", data])
        #expect(unknown.status == 66)
        #expect(unknown.errors.hasPrefix("error: No board named \"nosuchboard\"."))
        #expect(!FileManager.default.fileExists(atPath: data))
        let notABoard = try FullDiskCommandTests.run(binary, ["challenge", "--board", "/etc/hostname", "--no-realtime", "--data-dir", data])
        #expect(notABoard.status == 78)
        #expect(notABoard.errors.hasPrefix("error: /etc/hostname:1: expected a mapping of keys"))
        #expect(!FileManager.default.fileExists(atPath: data))
    }
}
