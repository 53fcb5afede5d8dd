import Foundation
import Glibc
import Testing
@testable import ChronoHardware

/// Board files are bounded before Yams composes them: no anchors or aliases (an alias bomb in a
/// mapping key hung every reader), a size and a depth; and a `chip:` is opened only once it is known to
/// be a GPIO character device.
@Suite struct BoardFileBoundsTests {
    static let minimal = """
        name: test
        button:
          chip: gpiochip0
          line: 17
        motor:
          chip: gpiochip0
          line: GPIO27
          safe_max_on_ms: 800
        """

    func problem(_ text: String, file: String = "boards/test.yaml") -> BoardFileError? {
        do { _ = try BoardFileParser.parse(text, file: file); return nil } catch { return error }
    }

    /// The issue's file: nine levels, each a list of nine aliases of the one before, the last in a key.
    static func aliasBomb(levels: Int) -> String {
        var text = "name: test\na0: &a0 [x, x, x, x, x, x, x, x, x]\n"
        for level in 1...levels {
            let previous = "*a\(level - 1)"
            text += "a\(level): &a\(level) [\(Array(repeating: previous, count: 9).joined(separator: ", "))]\n"
        }
        text += "? *a\(levels)\n: boom\n"
        return text
    }

    @Test func anAliasBombIsRefusedAtItsFirstAnchor() throws {
        let error = try #require(problem(Self.aliasBomb(levels: 9)))
        #expect(error.description == "boards/test.yaml:2: defines a YAML anchor (&a0); board files do not take anchors or aliases. "
            + "Fix: remove the anchor, and write the value itself wherever an alias (`*…`) refers to it")
    }

    @Test func anAliasWithoutItsAnchorIsRefusedAsAnAlias() throws {
        let error = try #require(problem(Self.minimal + "\nled: *pin\n"))
        #expect(error.line == 9)
        #expect(error.problem == "uses a YAML alias (*pin); board files do not take anchors or aliases")
    }

    @Test func anchorsOnMappingsAndScalarsAreRefusedWithTheirLine() throws {
        let onMapping = try #require(problem(Self.minimal.replacingOccurrences(of: "motor:", with: "motor: &m")))
        #expect(onMapping.line == 5 && onMapping.problem.hasPrefix("defines a YAML anchor (&m)"))
        let onScalar = try #require(problem(Self.minimal.replacingOccurrences(of: "line: 17", with: "line: &l 17")))
        #expect(onScalar.line == 4 && onScalar.problem.hasPrefix("defines a YAML anchor (&l)"))
        // A long name is not echoed.
        let long = try #require(problem(Self.minimal.replacingOccurrences(of: "line: 17", with: "line: &\(String(repeating: "n", count: 40)) 17")))
        #expect(long.problem.hasPrefix("defines a YAML anchor (&…)"))
    }

    @Test func anAmpersandOrAsteriskInsideAValueIsNoAnchor() throws {
        for description in ["'*pin & &button'", "pin & button * 2"] {
            let text = Self.minimal.replacingOccurrences(of: "name: test", with: "name: test\ndescription: \(description)")
            #expect(problem(text) == nil, "\(description)")
        }
    }

    @Test func nestingPastEightLevelsIsRefused() throws {
        let deep = Self.minimal + "\nextra: " + String(repeating: "[", count: 9) + String(repeating: "]", count: 9) + "\n"
        let error = try #require(problem(deep))
        #expect(error.line == 9)
        #expect(error.problem == "nests sections more than 8 levels deep; a board file has two (a section such as `motor:`, then its keys)")
        // Sixty thousand brackets fit in 64 KiB; libyaml's scanner reads ahead over them and stops at its
        // own nesting limit (1,000) before the first event: Yams is never reached with them either.
        let brackets = try #require(problem("a: " + String(repeating: "[", count: 60_000)))
        #expect(brackets.problem.lowercased().contains("nest"))
        // Eight levels are only an unknown key.
        let eight = Self.minimal + "\nextra: " + String(repeating: "[", count: 8) + String(repeating: "]", count: 8) + "\n"
        #expect(problem(eight)?.problem == "unknown key")
    }

    @Test func textPast64KiBIsRefusedUnread() throws {
        let text = Self.minimal + "\n" + String(repeating: "# padding\n", count: 6554)
        let error = try #require(problem(text))
        #expect(error.description == "boards/test.yaml: is \(text.utf8.count) bytes, larger than 64 KiB (65536 bytes); board files are a few hundred bytes. "
            + "Fix: give the right file, or start again from boards/desktop.yaml")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bounds-\(getpid()).yaml").path
        FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
        defer { unlink(file) }
        #expect(throws: BoardFileError(file: file, key: "", problem: "is larger than 64 KiB (65536 bytes); board files are a few hundred bytes",
                                       fix: "give the right file, or start again from boards/desktop.yaml")) {
            try BoardFileParser.load(path: file)
        }
    }

    @Test func aSyntaxErrorIsStillYamsOwnMessage() throws {
        let error = try #require(problem("name: test\nbutton: [unclosed\n"))
        #expect(error.problem.hasPrefix("is not valid YAML"))
    }

    @Test func oneAliasBombInTheFolderLeavesTheOthersListedAndLoadable() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("boards-bounds-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.aliasBomb(levels: 9).replacingOccurrences(of: "name: test", with: "name: bomb")
            .write(toFile: folder + "/bomb.yaml", atomically: true, encoding: .utf8)
        try Self.minimal.replacingOccurrences(of: "name: test", with: "name: good")
            .write(toFile: folder + "/good.yaml", atomically: true, encoding: .utf8)
        let catalog = BoardCatalog(searchPath: [folder], builtIn: [:])
        #expect(catalog.list().map(\.name) == ["bomb", "good"])
        #expect(throws: BoardFileError.self) { try catalog.load("bomb") }
        #expect(try catalog.load("good").name == "good")
    }
}

/// A board's `chip:` that is not a GPIO character device is refused before anything opens it.
@Suite struct GpioChipCheckTests {
    func motorError(chip: String) -> GpioError? {
        do { _ = try GpiodMotor(line: GpioOutputLine(chip: chip, line: .offset(0), activeLow: false)); return nil } catch { return error }
    }

    @Test(arguments: [("/dev/zero", "character device 1:5 of class \"mem\""), ("/dev/null", "character device 1:3 of class \"mem\"")])
    func aCharacterDeviceOfAnotherClassIsRefused(path: String, what: String) throws {
        let error = try #require(motorError(chip: path))
        #expect(error.kind == .noSuchChip)
        #expect(error.detail == "\(path) is not a gpiochip: it is \(what), and was not opened")
        #expect(error.description.hasPrefix("motor: \(path) is not a gpiochip"))
        #expect(error.fix.contains("set `motor.chip` in the board file"))
    }

    @Test func aMissingPathIsNamed() throws {
        let error = try #require(motorError(chip: "/dev/gpiochip-none-\(getpid())"))
        #expect(error.kind == .noSuchChip)
        #expect(error.detail == "/dev/gpiochip-none-\(getpid()) does not exist, so it is not a gpiochip")
    }

    /// inotify sees every open of the file, for reading or writing; the check must cause none.
    @Test func aRegularFileAndAFifoAreRefusedWithoutBeingOpened() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chip-check-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/gpiochip0", fifo = folder + "/gpiochip1"
        FileManager.default.createFile(atPath: file, contents: Data("not a chip".utf8))
        try #require(mkfifo(fifo, 0o600) == 0)
        let watcher = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        try #require(watcher >= 0)
        defer { close(watcher) }
        for path in [file, fifo] { try #require(inotify_add_watch(watcher, path, UInt32(IN_OPEN)) >= 0) }

        let fileError = try #require(motorError(chip: file))
        #expect(fileError.kind == .noSuchChip)
        #expect(fileError.detail == "\(file) is not a gpiochip: it is a regular file, and was not opened")
        let fifoError = try #require(motorError(chip: fifo))
        #expect(fifoError.detail == "\(fifo) is not a gpiochip: it is a FIFO (named pipe), and was not opened")

        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(watcher, $0.baseAddress, $0.count) }
        #expect(count < 0 && errno == EAGAIN, "the chip check opened the file (\(count) bytes of inotify events)")
    }
}
