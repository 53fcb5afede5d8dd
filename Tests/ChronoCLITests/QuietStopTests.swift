import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A clean stop is quiet: SIGTERM or Ctrl-C (SIGINT) on `run`, `companion serve` and `collector serve`
/// ends with status 0 and logs nothing at error level (Hummingbird logged `CancellationError()` and
/// "Server shutdown error: Already closed" when the daemon cancelled its server mid-way through the
/// graceful stop). The programs run as they are started by people: `run` on a terminal (a pty).
@Suite(.serialized) struct QuietStopTests {
    /// A free loopback port (bound, read, released).
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts `arguments` on a pty, waits for `ready` in its output, sends `signal`, and answers the
    /// exit status and everything it wrote.
    static func stop(_ binary: String, _ arguments: [String], ready: String, with signal: Int32) throws -> (status: Int32, output: String) {
        var primary: Int32 = -1, secondary: Int32 = -1
        try #require(openpty(&primary, &secondary, nil, nil, nil) == 0)
        defer { close(primary) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let terminal = FileHandle(fileDescriptor: secondary, closeOnDealloc: true)
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        try process.run()
        try terminal.close()
        var output = ""
        var signalled = false
        let deadline = Date().addingTimeInterval(30)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var entry = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 200) >= 0 else { break }
            if entry.revents != 0 {
                let count = read(primary, &buffer, buffer.count)
                if count <= 0 { break }  // EIO: every writer has closed the terminal
                output += String(decoding: buffer[0..<count], as: UTF8.self)
            }
            if !signalled && output.contains(ready) {
                signalled = true
                kill(process.processIdentifier, signal)
            }
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    static func errorLines(_ output: String) -> [Substring] {
        output.split(separator: "\n").filter { $0.localizedCaseInsensitiveContains("error") || $0.contains("CancellationError") }
    }

    @Test(arguments: [SIGTERM, SIGINT], ["run", "companion", "collector"])
    func aCleanStopLogsNoError(signal: Int32, program: String) throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let directory = NSTemporaryDirectory() + "chronoception-quiet-stop-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let listen = ["--listen", "127.0.0.1:\(Self.freePort())", "--socket", directory + "/api.sock"]
        let (arguments, ready): ([String], String) = switch program {
        case "run": (["run", "--board", "desktop", "--data-dir", directory, "--state-file", directory + "/state.json"] + listen, "Ready.")
        case "companion": (["companion", "serve", "--data-dir", directory] + listen, "Stop with Ctrl-C.")
        default: (["collector", "serve", "--data-dir", directory] + listen, "Stop with Ctrl-C.")
        }
        let result = try Self.stop(binary, arguments, ready: ready, with: signal)
        #expect(result.output.contains(ready))
        #expect(result.status == 0, "\(result.output)")
        #expect(Self.errorLines(result.output).isEmpty, "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/api.sock"))
    }
}
