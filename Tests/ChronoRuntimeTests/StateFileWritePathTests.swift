import ChronoCore
@testable import ChronoRuntime
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The state file is replaced through a temporary made exclusively beside it, never through a planted
/// link, and a path that holds a link, a FIFO or a device is refused and left as it is.
@Suite struct StateFileWritePathTests {
    private func scratch() -> String {
        var template = Array("/tmp/chrono-state-test-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    @Test func replacingLeavesOneReadableFileAndNoTemporary() throws {
        let directory = scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = StateFile(path: directory + "/state.json", dataDirectory: "/data")
        try file.replace(with: "{\"a\":1}")
        try file.replace(with: "{\"a\":2}")
        #expect(file.read() == "{\"a\":2}\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["state.json"])
        var info = stat()
        #expect(stat(file.path, &info) == 0 && info.st_mode & 0o777 == 0o644)
    }

    /// The old temporary's name (`<state>.<pid>.tmp`) planted as a link to a victim: never followed.
    @Test func aPlantedLinkAtTheOldTemporaryNameIsNotFollowed() throws {
        let directory = scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let victim = directory + "/victim"
        #expect(FileManager.default.createFile(atPath: victim, contents: Data("keep".utf8)))
        let path = directory + "/state.json"
        #expect(symlink(victim, "\(path).\(getpid()).tmp") == 0)
        try StateFile(path: path).replace(with: "{}")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep")
    }

    @Test func aLinkAtTheStatePathIsRefusedAndKept() throws {
        let directory = scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let victim = directory + "/victim"
        #expect(FileManager.default.createFile(atPath: victim, contents: Data("keep".utf8)))
        let path = directory + "/state.json"
        #expect(symlink(victim, path) == 0)
        #expect(throws: StateFileRefused.self) { try StateFile(path: path).replace(with: "{}") }
        var info = stat()
        #expect(lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep")
    }

    @Test func aFIFOAtTheStatePathIsRefusedWithoutBlocking() throws {
        let directory = scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/state.json"
        #expect(mkfifo(path, 0o600) == 0)
        #expect(StateFile.refusal(path) != nil)
        #expect(throws: StateFileRefused.self) { try StateFile(path: path).replace(with: "{}") }
        #expect(StateFile(path: path).read() == nil)
        var info = stat()
        #expect(lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
    }

    @Test func aDeviceNodeIsRefusedNeverReplaced() throws {
        #expect(StateFile.refusal("/dev/null") != nil)
        #expect(throws: StateFileRefused.self) { try StateFile(path: "/dev/null").replace(with: "{}") }
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test func eachDataDirectoryHasItsOwnDefaultStateFile() {
        let environment = ["XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(StateFile.defaultPath(forDataDirectory: nil, environment: environment) == "/run/user/1000/chronoception/state.json")
        let one = StateFile.defaultPath(forDataDirectory: "/srv/a", environment: environment)
        let two = StateFile.defaultPath(forDataDirectory: "/srv/b", environment: environment)
        #expect(one != two)
        #expect(one.hasPrefix("/run/user/1000/chronoception/state-") && one.hasSuffix(".json"))
        #expect(one == StateFile.defaultPath(forDataDirectory: "/srv/a", environment: environment))
    }

    @Test func theFileRecordsItsDataDirectoryAndAnotherDeviceIsNamed() throws {
        let object: [String: Any] = ["version": 3, "state": "Idle", "pid": Int(getpid()), "data_dir": "/srv/other"]
        let lines = StateFileText.lines(object, dataDirectory: "/srv/mine")
        #expect(lines.contains("Data directory: /srv/other (another device: not /srv/mine, the one asked about)"))
        #expect(StateFileText.lines(object, dataDirectory: "/srv/other").contains("Data directory: /srv/other"))
        #expect(lines.first == "State: Idle")
    }

    /// A killed child not yet reaped (a zombie) has ended for every state-file reader.
    @Test func aZombieWriterHasEnded() throws {
        var pid: pid_t = 0
        var arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("60"), nil]
        defer { arguments.forEach { free($0) } }
        try #require(posix_spawn(&pid, "/bin/sleep", nil, nil, &arguments, environ) == 0)
        #expect(!StateFileText.writerHasEnded(pid: pid))
        kill(pid, SIGKILL)
        var ended = false
        for _ in 0..<200 {
            if StateFileText.writerHasEnded(pid: pid) { ended = true; break }
            usleep(5000)
        }
        #expect(ended)
        #expect(kill(pid, 0) == 0)  // kill(pid, 0) alone would call it alive
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        #expect(StateFileText.writerHasEnded(pid: pid))
    }
}
