import ChronoHardware
import Foundation
import Testing

/// The whole daemon, sent SIGHUP again and again mid-session: `chronoception run` as a subprocess on
/// the desktop board (standard input a pipe). SIGHUP reloads; it never stops the device, however many
/// arrive (it does not count towards the third-signal exit).
@Suite("SIGHUP reloads the daemon and never ends it", .serialized)
struct HangupSubprocessTests {
    @Test func hangupsKeepTheDaemonRunning() throws {
        let binary = try #require(SignalSubprocessTests.binary(), "build the chronoception executable first (swift build)")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("motor-\(UUID().uuidString).log").path
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)").path
        defer {
            try? FileManager.default.removeItem(atPath: log)
            try? FileManager.default.removeItem(atPath: dataDirectory)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["run", "--mode", "passive", "--test-interval-ms", "200", "--repetitions", "90", "--board", "desktop",
                             "--key-hold-ms", "100", "--motor-log", log, "--no-state-file", "--no-realtime", "--data-dir", dataDirectory]
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

        func waitForOnCount(_ count: Int) {
            let limit = HardwareClock.monotonicNanoseconds() + 20_000_000_000
            while SignalSubprocessTests.onCount(log) < count && process.isRunning && HardwareClock.monotonicNanoseconds() < limit {
                HardwareClock.sleep(untilMonotonicNanoseconds: HardwareClock.monotonicNanoseconds() + 20_000_000)
            }
        }
        // An idle tap (space) starts the Passive session; wait for a few boundaries.
        let startLimit = HardwareClock.monotonicNanoseconds() + 20_000_000_000
        while SignalSubprocessTests.onCount(log) < 3 && process.isRunning && HardwareClock.monotonicNanoseconds() < startLimit {
            input.fileHandleForWriting.write(Data(" ".utf8))
            HardwareClock.sleep(untilMonotonicNanoseconds: HardwareClock.monotonicNanoseconds() + 500_000_000)
        }
        for _ in 0..<4 {
            kill(process.processIdentifier, SIGHUP)
            HardwareClock.sleep(untilMonotonicNanoseconds: HardwareClock.monotonicNanoseconds() + 100_000_000)
        }
        let afterHangups = SignalSubprocessTests.onCount(log)
        waitForOnCount(afterHangups + 2)
        #expect(process.isRunning)
        #expect(SignalSubprocessTests.onCount(log) >= afterHangups + 2, "the session went on marking boundaries")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try? input.fileHandleForWriting.close()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(text.components(separatedBy: "SIGHUP: reading the board file and the settings again.").count - 1 == 4, "output: \(text)")
        #expect(text.contains("Session interrupted (stopped by SIGTERM)"), "output: \(text)")
    }
}
