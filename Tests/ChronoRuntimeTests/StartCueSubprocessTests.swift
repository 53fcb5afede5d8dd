import ChronoHardware
import Foundation
import Testing

/// The start cue in the whole program: `chronoception run` on the desktop board as a subprocess with the
/// hidden motor log. Without the first-boot marker the motor gives the device-ready buzz (one pulse of
/// 600 ms) before anything is pressed; with it, the setup-problem cue (five ticks, then the buzz), a
/// line on the console saying so, and the daemon carries on (a press still starts a session).
@Suite("The daemon's start cue, as the program", .serialized)
struct StartCueSubprocessTests {
    /// The motor log's pulses as (on, off) pairs in milliseconds after the first on.
    static func pulses(_ path: String) -> [(Int64, Int64)] {
        let lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n")
        var pulses: [(Int64, Int64)] = []
        var onAt: Int64?
        for line in lines {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let at = Int64(parts[1]) else { continue }
            if parts[0] == "on" { onAt = at } else if parts[0] == "off", let start = onAt { pulses.append((start, at)); onAt = nil }
        }
        guard let first = pulses.first?.0 else { return [] }
        return pulses.map { (($0.0 - first) / 1_000_000, ($0.1 - first) / 1_000_000) }
    }

    /// Runs the daemon until `cuePlayed` holds for the logged pulses (or 20 s); with `pressAfterCue`, then taps
    /// and waits until `sessionCued` holds (or 20 s); then stops it. Returns the pulses and the output.
    static func run(marker: String?, cuePlayed: @escaping ([(Int64, Int64)]) -> Bool, pressAfterCue: Bool = false,
                    sessionCued: @escaping ([(Int64, Int64)]) -> Bool = { _ in true }) throws -> (pulses: [(Int64, Int64)], output: String, status: Int32) {
        let binary = try #require(SignalSubprocessTests.binary(), "build the chronoception executable first (swift build)")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("start-cue-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let log = temporary + "/motor.log"
        let markerPath = temporary + "/first-boot-problems"
        if let marker { try marker.write(toFile: markerPath, atomically: false, encoding: .utf8) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["run", "--board", "desktop", "--key-hold-ms", "100", "--motor-log", log, "--no-state-file", "--no-realtime",
                             "--no-api", "--data-dir", temporary + "/data", "--first-boot-problems", markerPath]
        process.currentDirectoryURL = root
        var environment = ProcessInfo.processInfo.environment
        environment["CHRONOCEPTION_TEST_MODE"] = "1"
        environment["CHRONOCEPTION_BOARDS_DIR"] = root.appendingPathComponent("boards").path
        process.environment = environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        func waitFor(_ done: ([(Int64, Int64)]) -> Bool) {
            let limit = HardwareClock.monotonicNanoseconds() + 20_000_000_000
            while !done(pulses(log)) && process.isRunning && HardwareClock.monotonicNanoseconds() < limit {
                HardwareClock.sleep(untilMonotonicNanoseconds: HardwareClock.monotonicNanoseconds() + 20_000_000)
            }
        }
        waitFor(cuePlayed)
        if pressAfterCue {
            // An idle tap (space) starts a session: its ready cue (three ticks) follows.
            input.fileHandleForWriting.write(Data(" ".utf8))
            waitFor(sessionCued)
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        return (pulses(log), String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), process.terminationStatus)
    }

    @Test("no marker: one 600 ms buzz, the device-ready cue, before anything is pressed")
    func deviceReady() throws {
        let result = try Self.run(marker: nil, cuePlayed: { !$0.isEmpty })
        #expect(result.status == 0)
        let first = try #require(result.pulses.first, "output: \(result.output)")
        // 600 ms planned; a late "on" edge (this process is not real-time here) can only shorten it.
        #expect(first.1 - first.0 >= 400 && first.1 - first.0 <= 700, "\(result.pulses)")
        #expect(!result.output.contains("first-boot file had problems"))
    }

    /// The index of the first pulse of at least 400 ms (the buzz), if one was logged.
    static func buzz(_ pulses: [(Int64, Int64)]) -> Int? { pulses.firstIndex { $0.1 - $0.0 >= 400 } }

    @Test("with the marker: five ticks then the buzz, a console line, and a press still starts a session")
    func setupProblem() throws {
        let result = try Self.run(marker: "3\twifi_passphrase\tis 5 characters long\n", cuePlayed: { Self.buzz($0) != nil },
                                  pressAfterCue: true, sessionCued: { pulses in Self.buzz(pulses).map { pulses.count > $0 + 1 } ?? false })
        #expect(result.status == 0)
        let buzz = try #require(Self.buzz(result.pulses), "no buzz: \(result.pulses) output: \(result.output)")
        let ticks = result.pulses.prefix(buzz).map { $0.1 - $0.0 }
        let length = result.pulses[buzz].1 - result.pulses[buzz].0
        // Short ticks, then the long buzz, then (after the tap) the session's own cue. Every edge has an
        // absolute deadline, so an "on" edge this non-real-time process runs late shortens its pulse (seen
        // as a 7 ms tick), and one later than its own "off" deadline is not played at all (seen at load 15:
        // four ticks of five). The exact pattern is proven on virtual time (DaemonStartCueTests); this test
        // proves the program plays ticks, then the buzz, before a press, and that a press still starts a session.
        #expect((1...5).contains(ticks.count) && ticks.allSatisfy { $0 > 0 && $0 < 200 }, "\(result.pulses)")
        #expect(length >= 400 && length <= 700, "\(result.pulses)")
        #expect(result.pulses.count > buzz + 1, "no cue after the tap: \(result.pulses) output: \(result.output)")
        #expect(result.output.contains("The first-boot file had problems (listed in /var/lib/chronoception/first-boot.txt): playing the setup-problem cue; the device trains as usual. Fix chronoception.txt on the boot partition."), "output: \(result.output)")
        #expect(result.output.contains("Attempt 1 of 1"), "output: \(result.output)")
        #expect(result.output.contains("Session interrupted") || result.output.contains("interrupted"), "output: \(result.output)")
    }
}
