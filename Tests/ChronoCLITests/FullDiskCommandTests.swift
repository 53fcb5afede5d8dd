import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The program itself on a full disk (a small tmpfs; needs root, as CI has): `simulate` stops saving
/// with one message and does not blame the invariants; reading and exporting still work afterwards.
@Suite(.serialized, .enabled(if: getuid() == 0, "needs root to mount a small tmpfs"))
struct FullDiskCommandTests {
    static func binary() -> String? {
        guard let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        let candidate = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("chronoception").path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    static func run(_ binary: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
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

    @Test func simulateStopsSavingWithOneMessageAndReadsStillWork() throws {
        let binary = try #require(Self.binary(), "build the chronoception executable first (swift build)")
        let directory = NSTemporaryDirectory() + "chronoception-fulldisk-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        // Room for the schema's migrations (their write-ahead log) and a few sessions, then full: at
        // 300 KiB the migrations added for keys and notes no longer fit, and nothing is saved at all.
        mount.arguments = ["-t", "tmpfs", "-o", "size=600k", "tmpfs", directory]
        try mount.run()
        mount.waitUntilExit()
        try #require(mount.terminationStatus == 0)
        defer { _ = umount2(directory, Int32(MNT_DETACH)) }
        let data = directory + "/data"

        let simulate = try Self.run(binary, ["simulate", "--sessions", "3000", "--quiet", "--data-dir", data])
        #expect(simulate.status == 74)
        // Besides the one line that says the new data directory was made.
        let errorLines = simulate.errors.split(separator: "\n").filter { $0 != "created \(data)" }
        #expect(errorLines.count == 1, "\(simulate.errors)")
        #expect(errorLines.first?.hasPrefix("error: Saving stopped after") == true)
        #expect(simulate.output.contains("simulate: 3000 passed, 0 failed"))

        let sessions = try Self.run(binary, ["sessions", "--json", "--data-dir", data])
        #expect(sessions.status == 0, "\(sessions.errors)")
        let export = try Self.run(binary, ["export", "csv", "--all", "--data-dir", data])
        #expect(export.status == 0, "\(export.errors)")
        let write = try Self.run(binary, ["export", "csv", "--all", "--data-dir", data, "-o", directory + "/out.csv"])
        #expect(write.status == 74 || write.status == 0)
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: directory)).contains { $0.contains(".tmp-") })
    }
}
