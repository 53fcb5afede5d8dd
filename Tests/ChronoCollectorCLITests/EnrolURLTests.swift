import ChronoAPI
import Foundation
import Testing
@testable import ChronoCollectorCLI
#if canImport(Glibc)
import Glibc
#endif

/// `enrol` prints the URL devices reach the collector at: the port `serve` really listens on (from the
/// record it keeps while serving), this machine's name for a wildcard address, `--url` as given, and
/// serve's default port only when no collector serves the store — saying so.
@Suite struct EnrolURLTests {
    @Test func theURLFollowsWhereServeListens() {
        #expect(EnrolURL.shown(explicit: nil, listening: TCPAddress(host: "0.0.0.0", port: 9000), hostName: "lab").url == "http://lab:9000")
        #expect(EnrolURL.shown(explicit: nil, listening: TCPAddress(host: "::", port: 9000), hostName: "lab") == ("http://lab:9000", nil))
        #expect(EnrolURL.shown(explicit: nil, listening: TCPAddress(host: "192.168.1.5", port: 8800), hostName: "lab") == ("http://192.168.1.5:8800", nil))
        #expect(EnrolURL.shown(explicit: nil, listening: TCPAddress(host: "fd00::5", port: 8800), hostName: "lab").url == "http://[fd00::5]:8800")
        #expect(EnrolURL.shown(explicit: "https://collector.example", listening: TCPAddress(host: "0.0.0.0", port: 9000), hostName: "lab")
                == ("https://collector.example", nil))
        let loopback = EnrolURL.shown(explicit: nil, listening: TCPAddress(host: "127.0.0.1", port: 9001), hostName: "lab")
        #expect(loopback.url == "http://127.0.0.1:9001")
        #expect(loopback.note == "The collector listens on loopback only (127.0.0.1:9001): only a device on this machine reaches it. For devices on the network, serve with --listen 0.0.0.0:9001.")
        let none = EnrolURL.shown(explicit: nil, listening: nil, hostName: "lab")
        #expect(none.url == "http://lab:8738")
        #expect(none.note == "No collector is serving this store now, so the URL assumes serve's default port 8738; if devices reach the collector at another address, give it with --url.")
    }

    @Test func aRecordOfAProcessThatHasGoneIsIgnored() throws {
        let directory = CollectorCommandTests.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/" + ServeRecord.fileName
        ServeRecord.write(TCPAddress(host: "0.0.0.0", port: 9100), to: path)
        #expect(ServeRecord.listening(at: path) == TCPAddress(host: "0.0.0.0", port: 9100))
        try "{\"pid\": 2147483646, \"listen\": \"0.0.0.0:9100\"}".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(ServeRecord.listening(at: path) == nil)
        try "not json".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(ServeRecord.listening(at: path) == nil)
        #expect(ServeRecord.listening(at: directory + "/none") == nil)
    }

    /// The programs themselves: `enrol` while `serve` listens on a port of its own prints that port;
    /// after serve has stopped (its record removed) it prints the default port and says it guessed.
    @Test func enrolPrintsThePortServeListensOn() throws {
        let me = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let binary = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("chronoception-collector").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build chronoception-collector first (swift build)")
        let directory = CollectorCommandTests.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let serve = Process()
        serve.executableURL = URL(fileURLWithPath: binary)
        serve.arguments = ["serve", "--listen", "127.0.0.1:0", "--no-socket", "--data-dir", directory]
        let output = Pipe()
        serve.standardOutput = output
        serve.standardError = output
        try serve.run()
        defer { if serve.isRunning { kill(serve.processIdentifier, SIGKILL) } }
        // A serve that never says it listens is stopped after 20 s, so the read below ends (and the
        // port's #require fails with what it printed) instead of hanging the run.
        nonisolated(unsafe) let watched = serve
        DispatchQueue.global().asyncAfter(deadline: .now() + 20) { if watched.isRunning { kill(watched.processIdentifier, SIGKILL) } }
        var printed = ""
        while !printed.contains("Stop with Ctrl-C.") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            printed += String(decoding: data, as: UTF8.self)
        }
        let port = try #require(printed.firstMatch(of: /Collector pages on http:\/\/127\.0\.0\.1:(\d+)\//).map { String($0.1) })
        #expect(port != "8738")

        func enrol(_ name: String) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["enrol", name, "--data-dir", directory]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            return text
        }
        let serving = try enrol("P1").split(separator: "\n")
        #expect(serving.contains { $0.hasPrefix("  chronoception sync add http://127.0.0.1:\(port) --code ") })
        kill(serve.processIdentifier, SIGTERM)
        serve.waitUntilExit()
        #expect(serve.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: directory + "/" + ServeRecord.fileName))
        let stopped = try enrol("P2").split(separator: "\n")
        #expect(stopped.contains { $0.hasPrefix("  chronoception sync add http://\(ProcessInfo.processInfo.hostName):8738 --code ") })
        #expect(stopped.contains { $0.hasPrefix("No collector is serving this store now") })
    }
}
