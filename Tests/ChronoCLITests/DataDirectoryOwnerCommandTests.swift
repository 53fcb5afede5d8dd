import ChronoCommandLine
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// One owner of a data directory, as the program behaves: a second device process is refused with
/// exit 75 naming the holder, a single session elsewhere leaves the daemon's state file alone, a
/// missing `--data-dir` is 66 unless the command makes a store, a stale state file is 3 with a reason,
/// and `kill -9` followed by a restart 100 ms later gets "Previous session ended unexpectedly".
@Suite(.serialized) struct DataDirectoryOwnerCommandTests {
    /// A scratch directory with a runtime folder and a default data home of its own.
    struct Scratch {
        let root: String
        init() {
            var template = Array("/tmp/chrono-owner-test-XXXXXX".utf8CString)
            root = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
            mkdir(root + "/run", 0o700)
        }
        var environment: [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_RUNTIME_DIR"] = root + "/run"
            environment["XDG_DATA_HOME"] = root + "/home"
            environment["CHRONOCEPTION_TEST_MODE"] = "1"
            environment["SWIFT_BACKTRACE"] = "enable=no"
            return environment
        }
        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    /// A running `chronoception run` on the desktop board, tapped through its standard input.
    final class Daemon {
        let process = Process()
        let input = Pipe()
        let errorsPath: String

        init(_ binary: String, _ arguments: [String], scratch: Scratch, name: String) throws {
            errorsPath = scratch.root + "/\(name).err"
            _ = FileManager.default.createFile(atPath: errorsPath, contents: nil)
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["run", "--board", "desktop", "--no-realtime", "--no-api"] + arguments
            process.environment = scratch.environment
            process.standardInput = input
            // The console and the errors, in one file the test reads as it goes.
            let log = FileHandle(forWritingAtPath: errorsPath)
            process.standardOutput = log
            process.standardError = log
            try process.run()
        }

        var pid: Int32 { process.processIdentifier }
        var errors: String { (try? String(contentsOfFile: errorsPath, encoding: .utf8)) ?? "" }
        func tap() { input.fileHandleForWriting.write(Data(" ".utf8)) }

        /// Waits (up to 15 s) until `condition` holds.
        func until(_ condition: () -> Bool) -> Bool {
            for _ in 0..<1500 {
                if condition() { return true }
                usleep(10_000)
            }
            return false
        }

        func stop() {
            if process.isRunning { kill(pid, SIGTERM) }
            process.waitUntilExit()
        }
    }

    static func run(_ binary: String, _ arguments: [String], scratch: Scratch) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = scratch.environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    static func stateObject(_ path: String) -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    }

    @Test func aSecondDeviceProcessOnTheSameDirectoryExits75NamingTheHolder() throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let scratch = Scratch()
        defer { scratch.remove() }
        let data = scratch.root + "/data"
        let state = scratch.root + "/run/a.json"
        let daemon = try Daemon(binary, ["--data-dir", data, "--state-file", state], scratch: scratch, name: "a")
        defer { daemon.stop() }
        #expect(daemon.until { Self.stateObject(state)?["state"] as? String == "Idle" }, "\(daemon.errors)")

        let second = try Self.run(binary, ["run", "--board", "desktop", "--no-realtime", "--no-api", "--data-dir", data,
                                           "--state-file", scratch.root + "/run/b.json"], scratch: scratch)
        #expect(second.status == ExitStatus.storeBusy.rawValue)
        #expect(second.errors.contains("pid \(daemon.pid)"), "\(second.errors)")
        #expect(second.errors.contains("chronoception start"))
        for command in ["challenge", "passive"] {
            let single = try Self.run(binary, [command, "--board", "desktop", "--no-realtime", "--data-dir", data, "--no-state-file"], scratch: scratch)
            #expect(single.status == ExitStatus.storeBusy.rawValue, "\(command): \(single.errors)")
            #expect(single.errors.contains("pid \(daemon.pid)"))
        }
        #expect(Self.stateObject(state)?["pid"] as? Int == Int(daemon.pid))
        #expect(Self.stateObject(state)?["data_dir"] as? String == data)
    }

    /// The daemon on the default data directory writes state.json; a session on another directory
    /// writes its own file, so `status` keeps telling the truth about the daemon.
    @Test func aSingleSessionOnAnotherDirectoryLeavesTheDaemonsStateFile() throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let scratch = Scratch()
        defer { scratch.remove() }
        let daemonState = scratch.root + "/run/chronoception/state.json"
        let daemon = try Daemon(binary, [], scratch: scratch, name: "daemon")
        defer { daemon.stop() }
        #expect(daemon.until { Self.stateObject(daemonState)?["state"] as? String == "Idle" }, "\(daemon.errors)")

        let other = scratch.root + "/other"
        let single = Process()
        single.executableURL = URL(fileURLWithPath: binary)
        single.arguments = ["passive", "--board", "desktop", "--no-realtime", "--test-interval-ms", "10", "--repetitions", "1", "--data-dir", other]
        single.environment = scratch.environment
        let input = Pipe(), errors = Pipe()
        single.standardInput = input
        single.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        single.standardError = errors
        try single.run()
        usleep(300_000)
        input.fileHandleForWriting.write(Data(" ".utf8))
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        single.waitUntilExit()
        #expect(single.terminationStatus == 0, "\(said)")
        #expect(said.contains("created \(other)"), "\(said)")
        let object = Self.stateObject(daemonState)
        #expect(object?["pid"] as? Int == Int(daemon.pid))
        #expect(object?["state"] as? String == "Idle")
        let files = try FileManager.default.contentsOfDirectory(atPath: scratch.root + "/run/chronoception")
        #expect(files.contains { $0.hasPrefix("state-") && $0.hasSuffix(".json") }, "\(files)")

        let status = try Self.run(binary, ["status"], scratch: scratch)
        #expect(status.status == 0)
        #expect(status.output.hasPrefix("State: Idle\n"), "\(status.output)")
    }

    @Test func aMissingDataDirectoryIs66UnlessTheCommandMakesAStore() throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let scratch = Scratch()
        defer { scratch.remove() }
        let missing = scratch.root + "/mistyped/dir"
        for arguments in [["progress"], ["sessions"], ["settings", "list"], ["presets"], ["export", "csv", "--all"], ["health", "status"], ["sync", "status"]] {
            let result = try Self.run(binary, arguments + ["--data-dir", missing], scratch: scratch)
            #expect(result.status == ExitStatus.noInput.rawValue, "\(arguments): \(result.errors)")
            #expect(result.errors.contains("does not exist"), "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.root + "/mistyped"))
        let simulate = try Self.run(binary, ["simulate", "--sessions", "2", "--seed", "3", "--quiet", "--data-dir", missing], scratch: scratch)
        #expect(simulate.status == 0, "\(simulate.errors)")
        #expect(simulate.errors == "created \(missing)\n")
        var info = stat()
        #expect(stat(missing, &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(try Self.run(binary, ["progress", "--data-dir", missing], scratch: scratch).status == 0)
    }

    @Test func aStaleStateFileIsNotRunningWithAReason() throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let scratch = Scratch()
        defer { scratch.remove() }
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let path = scratch.root + "/run/stale.json"
        let text = #"{"version":5,"state":"Idle","board":"desktop","pid":\#(ended.processIdentifier),"data_dir":"/nowhere"}"#
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        let json = try Self.run(binary, ["status", "--json", "--state-file", path], scratch: scratch)
        #expect(json.status == ExitStatus.notRunning.rawValue)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(object["state"] as? String == "Stopped")
        #expect((object["reason"] as? String)?.contains("pid \(ended.processIdentifier), has ended") == true)
        #expect(object["last_state"] as? String == "Idle")
        let words = try Self.run(binary, ["status", "--state-file", path], scratch: scratch)
        #expect(words.status == ExitStatus.notRunning.rawValue)
        #expect(words.output.hasPrefix("State: Idle (not running: the process that wrote this, pid \(ended.processIdentifier), has ended)\n"))
    }

    @Test func aLinkOrDeviceAsTheStateFileIsRefusedBeforeTheSession() throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let scratch = Scratch()
        defer { scratch.remove() }
        let link = scratch.root + "/run/link.json"
        #expect(symlink(scratch.root + "/victim", link) == 0)
        for path in ["/dev/null", link] {
            let result = try Self.run(binary, ["challenge", "--board", "desktop", "--no-realtime", "--data-dir", scratch.root + "/data", "--state-file", path], scratch: scratch)
            #expect(result.status == ExitStatus.outputRefused.rawValue, "\(path): \(result.errors)")
            #expect(result.errors.contains("will not be written"))
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.root + "/victim"))
    }

    /// The notice comes from the lock: the killed daemon may still be a zombie when the next starts.
    @Test func killNineThenARestart100msLaterMarksTheSessionAtOnce() throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let scratch = Scratch()
        defer { scratch.remove() }
        let data = scratch.root + "/data"
        let state = scratch.root + "/run/k.json"
        let arguments = ["--mode", "passive", "--test-interval-ms", "300", "--repetitions", "50", "--data-dir", data, "--state-file", state]
        let first = try Daemon(binary, arguments, scratch: scratch, name: "first")
        #expect(first.until { Self.stateObject(state)?["state"] as? String == "Idle" }, "\(first.errors)")
        first.tap()
        // A boundary fired: the session has its row (one that recorded nothing leaves none).
        #expect(first.until { (Self.stateObject(state)?["repetitions_done"] as? Int ?? 0) >= 1 }, "\(first.errors)")
        kill(first.pid, SIGKILL)
        usleep(100_000)
        let second = try Daemon(binary, arguments, scratch: scratch, name: "second")
        defer { second.stop() }
        #expect(second.until { second.errors.contains("Ready") || second.errors.contains("error:") })
        #expect(second.errors.contains("Previous session ended unexpectedly"), "\(second.errors)")
        first.process.waitUntilExit()
        let sessions = try Self.run(binary, ["sessions", "--json", "--data-dir", data], scratch: scratch)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(sessions.output.utf8)) as? [[String: Any]])
        #expect(rows.count == 1)
        #expect(rows.first?["status"] as? String == "interrupted", "\(sessions.output)")
    }
}
