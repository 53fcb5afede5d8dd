import ChronoCore
import ChronoStore
import ChronoSync
import ChronoTesting
import Foundation
import Glibc
import Testing
@testable import ChronoCLI
@testable import ChronoDevice

/// The command-line defects a new user met in the first week (issue 35: 4, 5, 10, 11, 12), run as the
/// program with exact output and exit statuses. (Defect 3 is the daemon's: PresetStartsDefaultModeTests.)
@Suite("chronoception: the first week's defects")
struct FirstWeekDefectTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        return try FullDiskCommandTests.run(binary, arguments)
    }

    /// The `error:` line of a run's standard error (other lines, such as a usage, follow it).
    static func errorLine(_ errors: String) -> String? {
        errors.components(separatedBy: "\n").first { $0.hasPrefix("error: ") }
    }

    @Test("defect 5: settings set with an unknown name lists every setting, one a line, with its values")
    func unknownSettingListsSettings() throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        let result = try Self.run(["settings", "set", "nosuch", "on", "--data-dir", fixture.directory])
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        let lines = result.errors.components(separatedBy: "\n")
        #expect(lines.first == "error: 'nosuch' is not a setting. The settings, each with the values it takes:")
        #expect(Array(lines.dropFirst()) == SettingKey.allCases.map { "  \($0.rawValue): \($0.summary)" } + [""])
        #expect(lines.contains("  default-mode: Mode a new session uses: challenge, fear, passive or reproduction (fear needs fear-mode on)."))
        #expect(lines.contains("  default-attempts: Attempts per Challenge, Fear and Reproduction session (1 to 99)."))
        #expect(!result.errors.contains("\\n") && !result.errors.contains("characters)…"))
        #expect(try Self.run(["settings", "get", "nosuch", "--data-dir", fixture.directory]).errors == result.errors)
    }

    @Test("defect 10: every live command refuses an out-of-range count before it opens the store or the terminal")
    func argumentsBeforeDevices() throws {
        let directory = NSTemporaryDirectory() + "chrono-args-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cases: [([String], String)] = [
            (["challenge", "--attempts", "100", "--interval", "10s"], "error: 100 attempts is out of range: use 1 to 99."),
            (["reproduction", "--attempts", "100", "--interval", "10s"], "error: 100 attempts is out of range: use 1 to 99."),
            (["fear", "--attempts", "0", "--i-understand-fear-mode"], "error: 0 attempts is out of range: use 1 to 99."),
            (["passive", "--repetitions", "100"], "error: 100 repetitions is out of range: use 1 to 99."),
            (["run", "--attempts", "100"], "error: 100 attempts is out of range: use 1 to 99."),
            (["run", "--repetitions", "0"], "error: 0 repetitions is out of range: use 1 to 99."),
        ]
        for (arguments, message) in cases {
            // Standard input is /dev/null: a terminal opened first would fail with 69 instead.
            let result = try Self.run(arguments + ["--data-dir", directory, "--no-state-file"])
            #expect(result.status == 64, "\(arguments)")
            #expect(Self.errorLine(result.errors) == message, "\(arguments): \(result.errors)")
            #expect(!result.errors.contains("standard input"))
        }
        let threshold = try Self.run(["fear", "--fear-threshold", "0", "--i-understand-fear-mode", "--data-dir", directory, "--no-state-file"])
        #expect(threshold.status == 64)
        #expect(Self.errorLine(threshold.errors) == "error: " + ConfigurationError.fearThresholdOutOfRange(0).description)
        // Refused before the store: the data directory was never made.
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    @Test("defect 11: Reproduction in the top-level help, run --attempts, start --count and the mode lists")
    func reproductionNamed() throws {
        #expect(SessionMode.listText == SessionMode.allCases.map(\.rawValue).dropLast().joined(separator: ", ") + " or reproduction")
        #expect(SessionMode.attemptModesText == "Challenge, Fear and Reproduction")
        #expect(SessionMode.boundaryModesText == "Passive")
        let help = try Self.run(["--help"])
        #expect(help.status == 0)
        let commands = help.output.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for mode in SessionMode.allCases {
            #expect(commands.contains { $0.hasPrefix(mode.rawValue + " ") }, "\(mode) is a subcommand in the help")
        }
        #expect(help.output.contains("reproduction            Run a Reproduction session: the motor presents the"))
        let run = try Self.run(["run", "--help"]).output.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        #expect(run.contains("--attempts <attempts> Attempts for Challenge, Fear and Reproduction (1 to 99) for the first idle tap."))
        #expect(run.contains("challenge, fear, passive or reproduction (default: the last session's"))
        let start = try Self.run(["start", "--help"]).output.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        #expect(start.contains("Attempts (Challenge, Fear and Reproduction) or repetitions (Passive), 1 to 99."))
        let page = try String(contentsOfFile: Self.repository + "/web/settings.js", encoding: .utf8)
        #expect(page.contains(#""Attempts (Challenge, Fear, Reproduction)""#))
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    @Test("defect 4: companion on a taken TCP port says what run says, exit 69")
    func companionPortTaken() throws {
        let taken = try TakenLoopbackPort()
        defer { taken.close() }
        let port = taken.port
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        let result = try Self.run(["companion", "--listen", "127.0.0.1:\(port)", "--no-socket", "--data-dir", fixture.directory])
        #expect(result.status == 69)
        let line = try #require(Self.errorLine(result.errors))
        #expect(line.hasPrefix("error: The device API could not start: Cannot listen on 127.0.0.1:\(port): "))
        #expect(line.contains("Address already in use"))
        #expect(line.hasSuffix("Is another chronoception serving it? Choose another with --listen ADDR:PORT or --socket PATH."))
        #expect(!result.errors.contains("503") && !result.errors.contains("not_listening"))
    }

    @Test("defect 4: companion beside a server holding its socket says so, exit 69")
    func companionSocketTaken() throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        let socketPath = fixture.directory + "/api.sock"
        let first = Process()
        first.executableURL = URL(fileURLWithPath: binary)
        first.arguments = ["companion", "--listen", "127.0.0.1:0", "--socket", socketPath, "--data-dir", fixture.directory]
        let output = Pipe()
        first.standardOutput = output
        first.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try first.run()
        defer { first.terminate(); first.waitUntilExit() }
        var heard = ""
        while !heard.contains("Stop with Ctrl-C.") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            heard += String(decoding: data, as: UTF8.self)
        }
        #expect(heard.contains("Device API on the Unix socket \(socketPath)"))
        let second = try Self.run(["companion", "--listen", "127.0.0.1:0", "--socket", socketPath, "--data-dir", fixture.directory])
        #expect(second.status == 69)
        #expect(Self.errorLine(second.errors) == "error: The device API could not start: Another process is serving the API at \(socketPath) (is `chronoception run` or `companion` already running?). Stop it, or choose another path with --socket PATH.")
    }

    @Test("defect 12: health enable refuses a log it cannot write, and changes nothing")
    func healthEnableChecksThePath() throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        let data = ["--data-dir", fixture.directory]
        #expect(try Self.run(["health", "disable"] + data).status == 0)
        let missing = fixture.directory + "/no-such-folder/health.jsonl"
        #expect(try Self.run(["settings", "set", "health-log-file", missing] + data).status == 0)
        let refused = try Self.run(["health", "enable"] + data)
        #expect(refused.status == 77)
        #expect(refused.output.isEmpty)
        #expect(refused.errors == "error: The health log \(missing) cannot be written: its folder \(fixture.directory)/no-such-folder does not exist (it is not created for you). Choose a file you can write with `chronoception settings set health-log-file /path/to/health.jsonl` (or make its folder writable), then run `chronoception health enable` again; nothing was changed.\n")
        #expect(try Self.run(["settings", "get", "health-logging"] + data).output == "off\n")

        try FileManager.default.createDirectory(atPath: fixture.directory + "/log-is-a-folder", withIntermediateDirectories: true)
        #expect(try Self.run(["settings", "set", "health-log-file", fixture.directory + "/log-is-a-folder"] + data).status == 0)
        let folder = try Self.run(["health", "enable"] + data)
        #expect(folder.status == 77)
        #expect(folder.errors.hasPrefix("error: The health log \(fixture.directory)/log-is-a-folder cannot be written: it is not a regular file. "))

        let good = fixture.directory + "/health.jsonl"
        #expect(try Self.run(["settings", "set", "health-log-file", good] + data).status == 0)
        let enabled = try Self.run(["health", "enable"] + data)
        #expect(enabled.status == 0)
        #expect(enabled.output == "Health logging: on (\(good))\n")
    }

    @Test("defect 12: the writability check's answers")
    func writability() throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        let file = fixture.directory + "/log.jsonl"
        #expect(HealthLogWritability.problem(path: file) == nil)
        FileManager.default.createFile(atPath: file, contents: Data())
        #expect(HealthLogWritability.problem(path: file) == nil)
        #expect(HealthLogWritability.problem(path: file + "/inside.jsonl") == "\(file) is not a folder")
        #expect(HealthLogWritability.problem(path: fixture.directory) == "it is not a regular file")
    }

    @Test("defect 12: a session whose record is held back for the wall clock says so in one line")
    func heldBackIsSaid() throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        let store = try ChronoStore.open(StoreLocation(directory: fixture.directory), clock: UnsynchronisedClock())
        let lines = RecordedNotices()
        let recorder = StoreSessionRecorder(store: store, report: { lines.append($0) })
        let interval = try TrainingInterval(seconds: 60)
        let configuration = try SessionConfiguration(mode: .challenge, interval: interval, plannedCount: 1)
        let start = MonotonicInstant(nanoseconds: 1_000_000_000)
        let attempt = AttemptMeasurement(index: 1, target: interval, startMark: start + .seconds(1), tapMark: start + .seconds(62))
        let outcome = SessionOutcome(status: .completed, configuration: configuration, startedAt: start, endedAt: start + .seconds(62),
                                     attempts: [attempt], boundaries: [], fearSoundEffective: false, reason: nil)
        let anchor = WallClockAnchor(unixNanoseconds: 1_795_000_000_000_000_000, monotonic: start, utcOffsetSeconds: 0)
        recorder.sessionFinished(SessionFinishRecord(sessionID: UUID().uuidString, outcome: outcome, anchor: anchor, board: "desktop",
                                                     wallClockSynchronised: false))
        #expect(lines.all == [HealthNotes.sessionHeldBack])
        #expect(!HealthNotes.sessionHeldBack.contains("\n"))
        // A record written at once says nothing.
        let synchronised = StoreSessionRecorder(store: fixture.store, report: { lines.append($0) })
        synchronised.sessionFinished(SessionFinishRecord(sessionID: UUID().uuidString, outcome: outcome, anchor: anchor, board: "desktop",
                                                         wallClockSynchronised: true))
        #expect(lines.all.count == 1)
    }
}

/// A kernel clock that never reports synchronised (a desktop without NTP, a container).
private struct UnsynchronisedClock: WallClockStatus {
    func isSynchronised() -> Bool { false }
    func currentAnchor(utcOffsetSeconds: Int) -> WallClockAnchor {
        WallClockAnchor(unixNanoseconds: 1_795_000_300_000_000_000, monotonic: MonotonicInstant(nanoseconds: 900_000_000_000), utcOffsetSeconds: utcOffsetSeconds)
    }
    func bootID() -> String { "boot-test" }
}

/// Notices a recorder reports, collected in order.
private final class RecordedNotices: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}
