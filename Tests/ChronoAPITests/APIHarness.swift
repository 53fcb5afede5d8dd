import AsyncHTTPClient
@testable import ChronoAPI
import ChronoCore
import ChronoStore
import ChronoTesting
import Foundation
import Testing
import NIOCore
import NIOHTTP1

/// A real API server on a temporary Unix socket and a free loopback port, over a temporary store,
/// with a fake device; requests go through AsyncHTTPClient over either listener.
final class APIHarness: Sendable {
    enum Listener { case tcp, socket }

    struct Reply {
        var status: Int
        var headers: HTTPHeaders
        var text: String
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:] }
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
    }

    let directory: String
    let store: ChronoStore
    let device: any DeviceControl
    let server: APIServer
    let listening: APIServer.Listening
    let client: HTTPClient
    let serverTask: Task<Void, any Error>

    static let now: Int64 = 1_795_000_000_000_000_000

    private init(directory: String, store: ChronoStore, device: any DeviceControl, server: APIServer, listening: APIServer.Listening,
                 serverTask: Task<Void, any Error>) {
        self.directory = directory
        self.store = store
        self.device = device
        self.server = server
        self.listening = listening
        // Redirects are answers to check (the login link), not to follow.
        self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
        self.serverTask = serverTask
    }

    var fake: FakeDevice { device as! FakeDevice }

    /// Waits (without holding a thread) until a pairing request reaches the fake device; fails after
    /// 10 s rather than hanging the run when none does.
    func waitForPairingRequest() async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !fake.pairingPending {
            try #require(ContinuousClock.now < deadline, "no pairing request reached the device within 10 s")
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Runs `body` with a started harness, and always stops it.
    static func with<T>(device: any DeviceControl = FakeDevice(), trust: LocalTrust = .socketAndLoopback,
                        configure: (inout APIServerConfiguration) -> Void = { _ in },
                        _ body: (APIHarness) async throws -> T) async throws -> T {
        var template = Array("/tmp/chrono-api-test-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        let store = try ChronoStore.open(StoreLocation(directory: directory + "/data"))
        var configuration = APIServerConfiguration(socketPath: directory + "/run/api.sock", tcp: TCPAddress(host: "127.0.0.1", port: 0),
                                                   localTrust: trust, now: { now })
        configure(&configuration)
        let server = APIServer(store: store, device: device, configuration: configuration)
        let task = Task { try await server.run() }
        let listening = try await server.listening()
        let harness = APIHarness(directory: directory, store: store, device: device, server: server, listening: listening, serverTask: task)
        // The server subscribes to the device's events as it starts; events emitted before that are not replayed.
        if let fake = device as? FakeDevice {
            while fake.subscriberCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        }
        do {
            let value = try await body(harness)
            await harness.stop()
            return value
        } catch {
            await harness.stop()
            throw error
        }
    }

    func stop() async {
        await server.shutdown()
        _ = await serverTask.result
        try? await client.shutdown()
        try? FileManager.default.removeItem(atPath: directory)
    }

    var port: Int { listening.tcp?.port ?? 0 }

    func url(_ path: String, via listener: Listener) -> String {
        switch listener {
        case .tcp: return "http://127.0.0.1:\(port)\(path)"
        case .socket:
            let encoded = listening.socketPath!.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            return "http+unix://\(encoded)\(path)"
        }
    }

    func request(_ path: String, headers: [(String, String)] = [], via listener: Listener = .tcp) async throws -> Reply {
        try await request(.GET, path, headers: headers, via: listener)
    }

    func request(_ method: HTTPMethod, _ path: String, json: String? = nil, headers: [(String, String)] = [],
                 via listener: Listener = .tcp) async throws -> Reply {
        var request = HTTPClientRequest(url: url(path, via: listener))
        request.method = method
        if let json {
            request.headers.replaceOrAdd(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
        }
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 16 << 20)
        return Reply(status: Int(response.status.code), headers: response.headers, text: String(buffer: body))
    }

    /// Sessions for the store: completed Challenge sessions at `interval` seconds, one per day ending
    /// `daysAgo` days before `now`, each with attempts of the given elapsed seconds.
    func addChallenge(_ id: String, interval: Int = 60, daysAgo: Int, elapsed: [Double], mode: SessionMode = .challenge,
                      status: SessionStatus = .completed) throws {
        let target = try TrainingInterval(seconds: interval)
        let configuration = try SessionConfiguration(mode: mode, interval: target, plannedCount: max(elapsed.count, 1))
        let start = MonotonicInstant(nanoseconds: 1_000_000_000_000)
        var cursor = start + .seconds(2)
        var attempts: [AttemptMeasurement] = []
        for (index, value) in elapsed.enumerated() {
            let tap = cursor + .nanoseconds(Int64(value * 1e9))
            attempts.append(AttemptMeasurement(index: index + 1, target: target, startMark: cursor, tapMark: tap))
            cursor = tap + .seconds(5)
        }
        let outcome = SessionOutcome(status: status, configuration: configuration, startedAt: start, endedAt: cursor,
                                     attempts: attempts, boundaries: [], fearSoundEffective: false, reason: status == .completed ? nil : "test")
        let anchor = WallClockAnchor(unixNanoseconds: Self.now - Int64(daysAgo) * 86_400_000_000_000 - 3_600_000_000_000,
                                     monotonic: start, utcOffsetSeconds: 0)
        _ = try store.recordSessionFinished(SessionFinishRecord(sessionID: id, outcome: outcome, anchor: anchor, board: "desktop",
                                                                wallClockSynchronised: true), nowUnixNanoseconds: Self.now)
    }
}
