import Foundation
import Synchronization
import Testing
@testable import ChronoDevice

/// The power-off at the battery's critical level: the request file the system unit's path unit acts
/// on, the command elsewhere, and the `--power-off-request` value's check.
@Suite("Power-off at the battery's critical level")
struct PowerOffTests {
    /// What the runner said on the console.
    final class Lines: Sendable {
        let value = Mutex<[String]>([])
        var all: [String] { value.withLock { $0 } }
        func add(_ line: String) { value.withLock { $0.append(line) } }
    }

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("power-off-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    @Test("the request file is created with why and by whom, and nothing is said")
    func requestFile() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lines = Lines()
        PowerOffRunner(powerOff: .requestFile("\(folder)/power-off"), report: lines.add).run()
        let text = try String(contentsOfFile: "\(folder)/power-off", encoding: .utf8)
        #expect(text == "battery critical: power-off requested by chronoception (pid \(getpid()))\n")
        #expect(lines.all.isEmpty)
    }

    @Test("a link planted at the request's path is not followed, and the console says the device stays on")
    func linkRefused() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "keep\n".write(toFile: "\(folder)/target", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/power-off", withDestinationPath: "\(folder)/target")
        let lines = Lines()
        PowerOffRunner(powerOff: .requestFile("\(folder)/power-off"), report: lines.add).run()
        #expect(try String(contentsOfFile: "\(folder)/target", encoding: .utf8) == "keep\n")
        #expect(lines.all.count == 1)
        #expect(lines.all.first?.hasPrefix("Power-off: \(folder)/power-off could not be created (Too many levels of symbolic links); the device stays on.") == true)
    }

    @Test("a command that fails is said with its status")
    func failingCommand() {
        let lines = Lines()
        PowerOffRunner(powerOff: .command(["/bin/false"]), report: lines.add).run()
        #expect(lines.all == ["Power-off: `/bin/false` exited with status 1; the device stays on. Shut it down by hand before the battery is empty."])
    }

    @Test("--power-off-request takes an absolute path in an existing folder")
    func requestPath() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(PowerOff.requestPathProblem("\(folder)/power-off") == nil)
        #expect(PowerOff.requestPathProblem("run/power-off")
                == "--power-off-request needs the absolute path of a file (the system unit gives /run/chronoception/power-off), not \"run/power-off\".")
        #expect(PowerOff.requestPathProblem("\(folder)/") != nil)
        #expect(PowerOff.requestPathProblem("\(folder)/missing/power-off")
                == "--power-off-request \"\(folder)/missing/power-off\": the folder \"\(folder)/missing\" does not exist. Under systemd it is the unit's RuntimeDirectory (RuntimeDirectory=chronoception gives /run/chronoception).")
    }
}
