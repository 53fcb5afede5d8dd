import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `chronoception-collector serve` on a port that is taken says the listener's own words (the address,
/// what holds it, the fix) and exits 69, as `companion` and `run` do — never an HTTP code.
@Suite("Collector serve on a taken address")
struct CollectorServeTakenTests {
    @Test("a taken TCP port: the listener's sentence, exit 69, no 503")
    func portTaken() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        #expect(bound && listen(listener, 1) == 0)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let directory = CollectorCommandTests.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try CollectorProtocolCommandTests.binary())
        process.arguments = ["serve", "--data-dir", directory, "--listen", "127.0.0.1:\(port)", "--no-socket"]
        let error = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = error
        try process.run()
        let complained = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(process.terminationStatus == 69)
        let line = try #require(complained.split(separator: "\n").last { $0.hasPrefix("error: ") }.map(String.init))
        #expect(line.hasPrefix("error: The collector could not start: Cannot listen on 127.0.0.1:\(port): "))
        #expect(line.contains("Address already in use"))
        #expect(line.hasSuffix("Choose another with --listen ADDR:PORT or --socket PATH."))
        #expect(!complained.contains("503") && !complained.contains("not_listening"))
    }
}
