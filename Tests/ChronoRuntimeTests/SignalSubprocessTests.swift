import ChronoHardware
import Foundation
import Testing

/// The whole program, stopped by a signal in the middle of a session: run `chronoception passive` as a
/// subprocess on the desktop board (standard input a pipe, so no terminal is needed), with a test-only
/// interval and the hidden motor log, then send the signal.
@Suite("Signals stop a running session in order", .serialized)
struct SignalSubprocessTests {
    @Test("SIGTERM mid-session: interrupted, motor off, exit status 143", arguments: [(SIGTERM, Int32(143), "SIGTERM"), (SIGINT, Int32(130), "SIGINT")])
    func signalMidSession(signal: Int32, status: Int32, name: String) throws {
        let binary = try #require(Self.binary(), "build the chronoception executable first (swift build)")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("motor-\(UUID().uuidString).log").path
        // A data directory of its own: a test never writes into the user's store.
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)").path
        defer {
            try? FileManager.default.removeItem(atPath: log)
            try? FileManager.default.removeItem(atPath: dataDirectory)
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["passive", "--test-interval-ms", "300", "--repetitions", "90", "--board", "desktop",
                             "--motor-log", log, "--no-state-file", "--no-realtime", "--data-dir", dataDirectory]
        process.currentDirectoryURL = root
        var environment = ProcessInfo.processInfo.environment
        environment["CHRONOCEPTION_TEST_MODE"] = "1"
        environment["CHRONOCEPTION_BOARDS_DIR"] = root.appendingPathComponent("boards").path
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()

        // Wait (for a condition, up to 20 s) until a few boundaries have been marked.
        let limit = HardwareClock.monotonicNanoseconds() + 20_000_000_000
        while Self.onCount(log) < 4 && process.isRunning && HardwareClock.monotonicNanoseconds() < limit {
            HardwareClock.sleep(untilMonotonicNanoseconds: HardwareClock.monotonicNanoseconds() + 20_000_000)
        }
        #expect(process.isRunning)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try? input.fileHandleForWriting.close()

        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == status)
        #expect(text.contains("Session interrupted (stopped by \(name)"), "output: \(text)")
        #expect(!text.contains("\"status\":\"completed\""))
        let commands = (try String(contentsOfFile: log, encoding: .utf8)).split(separator: "\n").map { $0.split(separator: " ")[0] }
        #expect(commands.contains("on"))
        #expect(commands.last(where: { $0 == "on" || $0 == "off" }) == "off")
        #expect(commands.last == "close")

        // The store kept the session, as interrupted (never logged).
        let sessions = Process()
        sessions.executableURL = URL(fileURLWithPath: binary)
        sessions.arguments = ["sessions", "--json", "--data-dir", dataDirectory]
        let listing = Pipe()
        sessions.standardOutput = listing
        try sessions.run()
        sessions.waitUntilExit()
        let stored = String(decoding: listing.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stored.contains("\"status\" : \"interrupted\"") || stored.contains("\"status\": \"interrupted\""), "stored: \(stored)")
        #expect(stored.contains("\"health_log\": \"skipped\"") || stored.contains("\"health_log\" : \"skipped\""), "stored: \(stored)")
    }

    /// The `chronoception` executable beside this test bundle (same build directory).
    static func binary() -> String? {
        guard let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        let candidate = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("chronoception").path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    static func onCount(_ path: String) -> Int {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.hasPrefix("on ") }.count
    }
}
