import ArgumentParser
import ChronoCore
import ChronoHardware
import Testing
@testable import ChronoCLI
@testable import ChronoDevice

/// The seam where a board's GPIO button is requested: the kernel debounce (libgpiod v2) the command
/// line asks for, from the parsed command down to the line request's microseconds.
@Suite("The GPIO button's kernel debounce follows --debounce-ms")
struct ButtonDebounceRequestTests {
    /// What `run` (the daemon) and `challenge` (a single session) request for their board's button.
    static func requestedMicroseconds(_ arguments: [String], board name: String = "raspberry-pi-5") throws -> UInt32 {
        let board = try BoardCatalog.standard().load(name)
        guard case .gpiod = board.button.driver else { throw ValidationError("\(name) has no GPIO button") }
        let flags: SessionFlags
        switch try Chronoception.parseAsRoot(arguments) {
        case let run as RunCommand: flags = run.options.flags
        case let challenge as ChallengeCommand: flags = challenge.options.flags
        case let other: throw ValidationError("unexpected command \(other)")
        }
        return GpiodButton.debounceMicroseconds(milliseconds: BoardDrivers.buttonDebounceMilliseconds(board: board, flags: flags))
    }

    @Test("run --debounce-ms 7 requests 7000 µs; without the flag, the board's button.debounce_ms (10 ms: 10000 µs)")
    func flagWinsOverTheBoardFile() throws {
        #expect(try Self.requestedMicroseconds(["run", "--debounce-ms", "7"]) == 7000)
        #expect(try Self.requestedMicroseconds(["run"]) == 10_000)
        #expect(try Self.requestedMicroseconds(["challenge", "--interval", "1m", "--debounce-ms", "7"]) == 7000)
        #expect(try Self.requestedMicroseconds(["run", "--debounce-ms", "0"]) == 0)
    }
}
