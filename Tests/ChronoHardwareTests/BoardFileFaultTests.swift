import Foundation
import Testing
@testable import ChronoHardware

/// Board files that are wrong in the ways people get them wrong: each message says which way.
@Suite struct BoardFileFaultTests {
    static let minimal = """
        name: test
        long_press_ms: 1500
        button:
          chip: gpiochip0
          line: 17
          active_low: true
        motor:
          chip: gpiochip0
          line: GPIO27
          safe_max_on_ms: 800
        """

    func problem(_ text: String) -> BoardFileError? {
        do { _ = try BoardFileParser.parse(text, file: "test.yaml"); return nil } catch { return error }
    }

    @Test func aMisspeltRequiredKeyGetsDidYouMean() throws {
        let error = try #require(problem(Self.minimal.replacingOccurrences(of: "safe_max_on_ms", with: "safe_max_ms")))
        #expect(error.key == "motor.safe_max_on_ms")
        #expect(error.description.contains("`safe_max_ms`"))
        #expect(error.fix.contains("rename `safe_max_ms` to `safe_max_on_ms`"))
    }

    @Test func aDifferentKeyIsNotTakenForAMisspelling() throws {
        let error = try #require(problem(Self.minimal.replacingOccurrences(of: "  chip: gpiochip0\n  line: GPIO27", with: "  line: GPIO27")))
        #expect(error.key == "motor.chip")
        #expect(!error.description.contains("misspelling"))
    }

    @Test func aDuplicateKeyIsNamedWithoutTheFile() throws {
        let text = Self.minimal + "\n  onset_latency_ms: 5\n  onset_latency_ms: 6\n" + String(repeating: "# padding\n", count: 200)
        let error = try #require(problem(text))
        #expect(error.description.contains("`onset_latency_ms`"))
        #expect(!error.description.contains("padding"))
        #expect(error.description.count < 300)
    }

    @Test func debounceNotShorterThanTheLongPressIsRefusedInTheFile() throws {
        let text = Self.minimal.replacingOccurrences(of: "long_press_ms: 1500", with: "long_press_ms: 800")
            .replacingOccurrences(of: "  active_low: true\nmotor", with: "  active_low: true\n  debounce_ms: 900\nmotor")
        let error = try #require(problem(text))
        #expect(error.key == "button.debounce_ms")
        #expect(error.file == "test.yaml")
    }

    func loadProblem(_ path: String) -> String {
        do { _ = try BoardFileParser.load(path: path); return "loaded" } catch { return error.description }
    }

    @Test func aDirectoryDevNullAndBinaryEachSaySo() throws {
        #expect(loadProblem(NSTemporaryDirectory()).contains("is a directory"))
        #expect(loadProblem("/dev/null").contains("is empty"))
        let binary = NSTemporaryDirectory() + "binary-\(UUID().uuidString).yaml"
        defer { try? FileManager.default.removeItem(atPath: binary) }
        FileManager.default.createFile(atPath: binary, contents: Data([0x6E, 0x3A, 0xFF, 0xFE, 0x00]))
        #expect(loadProblem(binary).contains("not UTF-8"))
        #expect(loadProblem("/nonexistent/board.yaml").contains("does not exist"))
    }
}
