import ChronoTesting
import Foundation
import Testing

/// `chronoception-collector serve` on a port that is taken says the listener's own words (the address,
/// what holds it, the fix) and exits 69, as `companion` and `run` do — never an HTTP code.
@Suite("Collector serve on a taken address")
struct CollectorServeTakenTests {
    @Test("a taken TCP port: the listener's sentence, exit 69, no 503")
    func portTaken() throws {
        let taken = try TakenLoopbackPort()
        defer { taken.close() }
        let port = taken.port
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
