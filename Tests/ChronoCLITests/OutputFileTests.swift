import ChronoCommandLine
import Foundation
import Testing
@testable import ChronoCLI
@testable import ChronoDevice
#if canImport(Glibc)
import Glibc
#endif

/// `-o` never replaces what is not a regular file, and never leaves a partial file.
@Suite struct OutputFileTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "chronoception-output-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func contents(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }
    func leftovers() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.contains(".tmp-") } }

    @Test func aNewAndAnExistingRegularFileAreReplacedWhole() throws {
        let path = directory + "/out.csv"
        try OutputFile.write("one\n", to: path)
        try OutputFile.write("two\n", to: path)
        #expect(contents(path) == "two\n")
        #expect(leftovers().isEmpty)
    }

    @Test func aSymlinkStaysALinkAndItsTargetIsWritten() throws {
        let target = directory + "/target.csv"
        let link = directory + "/link.csv"
        try "old\n".write(toFile: target, atomically: false, encoding: .utf8)
        #expect(symlink(target, link) == 0)
        try OutputFile.write("new\n", to: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(contents(target) == "new\n")
    }

    @Test func aDirectoryAndADanglingLinkAreRefused() throws {
        #expect(throws: OutputError.self) { try OutputFile.write("x", to: directory) }
        let dangling = directory + "/dangling"
        #expect(symlink(directory + "/nowhere", dangling) == 0)
        let refusal = Result { () throws(OutputError) in try OutputFile.write("x", to: dangling) }
        if case .failure(let error) = refusal { #expect(error.status == .outputRefused) } else { Issue.record("a dangling link was written") }
        #expect(!FileManager.default.fileExists(atPath: directory + "/nowhere"))
    }

    @Test func aDeviceIsWrittenInPlaceNeverReplaced() throws {
        try OutputFile.write("discarded\n", to: "/dev/null")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
        let full = Result { () throws(OutputError) in try OutputFile.write("x", to: "/dev/full") }
        if case .failure(let error) = full {
            #expect(error.status == .ioError)
            #expect(error.description.contains("No space left"))
        } else { Issue.record("/dev/full accepted a write") }
        #expect(stat("/dev/full", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test func aFIFOIsWrittenInPlace() throws {
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader that reads to the end (Foundation's String(contentsOfFile:) may stop at size 0).
        let reader = Thread {
            let descriptor = open(fifo, O_RDONLY)
            var buffer = [UInt8](repeating: 0, count: 256)
            while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, 256) }) > 0 {}
            close(descriptor)
        }
        reader.start()
        try OutputFile.write("through the pipe\n", to: fifo)
        var info = stat()
        #expect(stat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
    }
}

/// Inputs work from FIFOs and /dev/null; a directory says so.
@Suite struct InputFileTests {
    @Test func devNullIsEmptyInput() throws {
        #expect(try InputFile.read("/dev/null", what: "x", limit: 100).isEmpty)
    }

    @Test func aDirectoryIsNamedAsOne() {
        do {
            _ = try InputFile.read("/tmp", what: "The edge file '/tmp'", limit: 100)
            Issue.record("a directory was read")
        } catch let failure as CommandFailure {
            #expect(failure.description.contains("is a directory"))
            #expect(failure.status == .noInput)
        } catch { Issue.record("\(error)") }
    }

    @Test func aMissingFileSaysItDoesNotExist() {
        do {
            _ = try InputFile.read("/nonexistent/edges", what: "The edge file", limit: 100)
            Issue.record("read a missing file")
        } catch let failure as CommandFailure {
            #expect(failure.description.contains("does not exist"))
        } catch { Issue.record("\(error)") }
    }

    @Test func tooLargeIsRefused() {
        #expect(throws: CommandFailure.self) { try InputFile.read("/dev/zero", what: "zeros", limit: 1 << 16) }
    }
}

/// On a full disk, `-o` keeps the old file whole and leaves no temporary behind. Needs root for a
/// small tmpfs (CI runs as root).
@Suite(.serialized, .enabled(if: getuid() == 0, "needs root to mount a small tmpfs"))
struct OutputFileFullDiskTests {
    @Test func theOldFileSurvivesAndNothingPartialRemains() throws {
        let directory = NSTemporaryDirectory() + "chronoception-full-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=64k", "tmpfs", directory]
        try mount.run()
        mount.waitUntilExit()
        try #require(mount.terminationStatus == 0)
        defer { _ = umount2(directory, Int32(MNT_DETACH)) }
        let path = directory + "/export.csv"
        try OutputFile.write("the old export\n", to: path)
        let result = Result { () throws(OutputError) in try OutputFile.write(String(repeating: "x", count: 1 << 20), to: path) }
        guard case .failure(let error) = result else { Issue.record("1 MiB fitted in 64 KiB"); return }
        #expect(error.status == .ioError)
        #expect(error.description.contains("Nothing partial was left behind"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "the old export\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["export.csv"])
    }
}
