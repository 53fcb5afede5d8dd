import Foundation
import Testing

/// `run --power-off-request`, the system unit's option: a bad value stops `run` before anything opens
/// (exit 64, one `error:` line naming the fix), and it cannot be combined with the test-mode command.
@Suite("chronoception run --power-off-request")
struct RunPowerOffRequestTests {
    @Test("a relative path or a missing folder is refused with exit 64; so is giving both ways")
    func refused() throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("power-off-cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let common = ["run", "--board", "desktop", "--no-realtime", "--no-api", "--data-dir", data]
        let relative = try FullDiskCommandTests.run(binary, common + ["--power-off-request", "power-off"])
        #expect(relative.status == 64)
        #expect(relative.errors.hasPrefix("error: --power-off-request needs the absolute path of a file (the system unit gives /run/chronoception/power-off), not \"power-off\"."))
        let missing = try FullDiskCommandTests.run(binary, common + ["--power-off-request", "/nonexistent-folder/power-off"])
        #expect(missing.status == 64)
        #expect(missing.errors.hasPrefix("error: --power-off-request \"/nonexistent-folder/power-off\": the folder \"/nonexistent-folder\" does not exist."))
        let both = try FullDiskCommandTests.run(binary, common + ["--power-off-request", "/tmp/power-off", "--power-off-command", "/bin/true"])
        #expect(both.status == 64)
        #expect(both.errors.hasPrefix("error: --power-off-request and --power-off-command are two ways to power off: give one."))
        #expect(!FileManager.default.fileExists(atPath: data))
    }
}
