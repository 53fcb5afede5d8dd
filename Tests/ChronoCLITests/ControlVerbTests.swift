import ChronoAPI
@testable import ChronoCLI
import ChronoCore
import ChronoStore
import ChronoTesting
import Foundation
import Testing

/// The control verbs' client against a real API server with a fake device on a temporary socket.
@Suite("Control verbs over the Unix socket")
struct ControlVerbTests {
    static func withServer(_ body: (DeviceAPIClient, FakeDevice) async throws -> Void) async throws {
        var template = Array("/tmp/chrono-cli-api-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try ChronoStore.open(StoreLocation(directory: directory + "/data"))
        let device = FakeDevice()
        let server = APIServer(store: store, device: device, configuration: APIServerConfiguration(socketPath: directory + "/api.sock", tcp: nil))
        let task = Task { try await server.run() }
        _ = try await server.listening()
        while device.subscriberCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        do {
            try await body(DeviceAPIClient(socketPath: directory + "/api.sock"), device)
        } catch {
            await server.shutdown()
            _ = await task.result
            throw error
        }
        await server.shutdown()
        _ = await task.result
    }

    @Test("start, end and discard reach the device; refusals carry its reason")
    func actions() async throws {
        try await Self.withServer { client, device in
            let started = try await client.request(.POST, "/device/start", json: #"{"mode":"passive","interval":"1m","count":2}"#)
            #expect(started.status == 202)
            let again = try await client.request(.POST, "/device/start", json: #"{"preset":"30s"}"#)
            #expect(again.status == 409)
            #expect(again.errorMessage?.contains("already running") == true)
            #expect(try await client.request(.POST, "/device/end").status == 202)
            let discard = try await client.request(.POST, "/device/discard")
            #expect(discard.status == 409)
            #expect(device.actions == [.start(.explicit(mode: .passive, interval: try TrainingInterval(seconds: 60), count: 2)),
                                       .start(.preset(try TrainingInterval(seconds: 30))), .endPassive, .discard])
        }
    }

    @Test("status --follow prints one line per state change, feedback and session end")
    func follow() async throws {
        try await Self.withServer { client, device in
            let lines = LineCollector()
            let following = Task {
                try await client.followEvents { name, object in
                    if let line = FollowLine.text(event: name, object) { lines.append(line) }
                }
            }
            while lines.count < 1 { try await Task.sleep(for: .milliseconds(1)) }
            _ = try await client.request(.POST, "/device/start", json: #"{"mode":"challenge","interval":"1m","count":3}"#)
            device.emit(.feedback(DeviceFeedback(sessionID: "FAKE-1", index: 1, count: 3, text: "early by 2.0 s (3 %)", zone: .green)))
            _ = try await client.request(.POST, "/device/discard")
            while lines.count < 5 { try await Task.sleep(for: .milliseconds(1)) }
            following.cancel()
            #expect(lines.all == [
                "Idle",
                "WaitingForStart · challenge 1m 0s · attempt 1 of 3",
                "  1 of 3: early by 2.0 s (3 %)",
                "Session FAKE-1 aborted.",
                "Idle",
            ])
        }
    }

    @Test("with no device API the client says so and how to fix it (exit 3)")
    func unreachable() async throws {
        let client = DeviceAPIClient(socketPath: "/tmp/chrono-no-such-dir/api.sock")
        await #expect {
            _ = try await client.request(.POST, "/device/end")
        } throws: { error in
            guard let failure = error as? DeviceAPIClient.Failure else { return false }
            return failure.exitCode == 3 && failure.description.contains("chronoception run")
        }
    }

    @Test("start's options are checked before anything is sent")
    func startValidation() throws {
        #expect(throws: (any Error).self) { try StartCommand.parse(["--preset", "30s", "--mode", "challenge"]) }
        #expect(throws: (any Error).self) { try StartCommand.parse(["--interval", "30s"]) }
        #expect(throws: (any Error).self) { try StartCommand.parse(["--mode", "passive"]) }
        #expect(throws: (any Error).self) { try StartCommand.parse(["--preset", "5s"]) }
        #expect(throws: (any Error).self) { try StartCommand.parse(["--mode", "challenge", "--interval", "1m", "--count", "0"]) }
        #expect(throws: Never.self) { try StartCommand.parse(["--mode", "challenge", "--interval", "1m", "--count", "3"]) }
    }
}

final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var count: Int { lock.withLock { lines.count } }
    var all: [String] { lock.withLock { lines } }
}
