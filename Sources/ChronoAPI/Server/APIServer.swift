import ChronoCore
import ChronoStore
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The device API: one router served on a Unix socket and on TCP (docs/API.md).
///
/// Construct it with the store and the live device, call `run()` in a task of its own, and stop it
/// with `shutdown()` (or by cancelling that task). It never touches the real-time loop: everything
/// live goes through `DeviceControl`, and store work runs on Dispatch's pool.
public final class APIServer: Sendable {
    /// The largest request body accepted (bigger gets 413).
    public static let maximumBodyBytes = 16 * 1024

    /// Where the server ended up listening (a port 0 request gets its real port here).
    public struct Listening: Hashable, Sendable {
        public var socketPath: String?
        public var tcp: TCPAddress?
    }

    let state: APIState
    let configuration: APIServerConfiguration
    let logger: Logger
    private let serviceGroup = Mutex<ServiceGroup?>(nil)
    private let stopRequested = Mutex(false)
    private let readiness = Readiness()

    public init(store: ChronoStore, device: any DeviceControl, configuration: APIServerConfiguration, logger: Logger? = nil) {
        var fallback = Logger(label: "chronoception.api")
        fallback.logLevel = .warning
        self.logger = logger ?? fallback
        self.configuration = configuration
        self.state = APIState(store: store, device: device, configuration: configuration)
    }

    /// Serves until `shutdown()` or cancellation. Throws when a listener cannot be opened (the
    /// message names the address and the fix).
    public func run() async throws {
        var services: [any Service] = []
        let router = APIRouter.make(state)
        let responder = router.buildResponder()
        var expected = 0
        if let path = configuration.socketPath {
            try UnixSocketFile.prepare(path)
            expected += 1
            services.append(Application(
                responder: responder,
                configuration: .init(address: .unixDomainSocket(path: path), serverName: nil),
                onServerRunning: { [readiness] _ in
                    chmod(path, 0o660)
                    readiness.report(socketPath: path)
                },
                logger: logger))
        }
        if let tcp = configuration.tcp {
            expected += 1
            services.append(Application(
                responder: responder,
                configuration: .init(address: .hostname(tcp.host, port: tcp.port), serverName: nil, reuseAddress: true),
                onServerRunning: { [readiness] channel in
                    readiness.report(tcp: TCPAddress(host: tcp.host, port: channel.localAddress?.port ?? tcp.port))
                },
                logger: logger))
        }
        readiness.expect(expected)
        // Last in the list, so first to stop: live-event streams end before the listeners drain.
        services.append(state.events)
        let group = ServiceGroup(configuration: .init(
            services: services.map { .init(service: $0) },
            gracefulShutdownSignals: configuration.stopOnSignals ? [.sigterm, .sigint] : [],
            logger: logger))
        serviceGroup.withLock { $0 = group }
        defer {
            if let path = configuration.socketPath { unlink(path) }
            readiness.fail()
        }
        if stopRequested.withLock({ $0 }) { return }
        do {
            try await group.run()
        } catch let error as ServiceGroupError {
            throw APIError(.internalServerError, "listen_failed", "The API could not keep listening: \(error).")
        } catch {
            throw APIError(.internalServerError, "listen_failed", "Cannot listen on \(configuration.tcp.map(\.description) ?? configuration.socketPath ?? "?"): \(error). Is another chronoception serving it? Choose another with --listen ADDR:PORT or --socket PATH.")
        }
    }

    /// Waits until every listener is open and says where; throws if the server stopped first.
    public func listening() async throws -> Listening {
        try await readiness.wait()
    }

    /// Stops gracefully: live-event streams end, requests in flight finish, listeners close.
    public func shutdown() async {
        stopRequested.withLock { $0 = true }
        state.events.close()
        if let group = serviceGroup.withLock({ $0 }) {
            await group.triggerGracefulShutdown()
        }
    }

    /// A one-time login link path (`/api/v1/login?token=…`), valid for ten minutes, for a browser on a
    /// machine without a key (the token is spent at once and exchanged for a cookie).
    public func makeLoginPath() -> String {
        "/api/v1/login?token=" + state.loginTokens.issue()
    }
}

/// Collects the listeners' "running" reports and wakes whoever waits for all of them. Public for
/// the collector's server, which listens the same way.
public final class Readiness: Sendable {
    private struct State {
        var expected = Int.max
        var listening = APIServer.Listening()
        var reported = 0
        var failed = false
        var waiters: [CheckedContinuation<APIServer.Listening, any Error>] = []
    }

    private let state = Mutex(State())

    public init() {}

    public func expect(_ count: Int) {
        let ready = state.withLock { state -> ([CheckedContinuation<APIServer.Listening, any Error>], APIServer.Listening)? in
            state.expected = count
            return Self.takeReady(&state)
        }
        ready.map { waiters, listening in waiters.forEach { $0.resume(returning: listening) } }
    }

    public func report(socketPath: String? = nil, tcp: TCPAddress? = nil) {
        let ready = state.withLock { state -> ([CheckedContinuation<APIServer.Listening, any Error>], APIServer.Listening)? in
            if let socketPath { state.listening.socketPath = socketPath }
            if let tcp { state.listening.tcp = tcp }
            state.reported += 1
            return Self.takeReady(&state)
        }
        ready.map { waiters, listening in waiters.forEach { $0.resume(returning: listening) } }
    }

    public func fail() {
        let waiters = state.withLock { state in
            state.failed = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        waiters.forEach { $0.resume(throwing: APIError(.serviceUnavailable, "not_listening", "The API server stopped before it was listening.")) }
    }

    public func wait() async throws -> APIServer.Listening {
        try await withCheckedThrowingContinuation { continuation in
            let outcome = state.withLock { state -> Result<APIServer.Listening, any Error>? in
                if state.reported >= state.expected { return .success(state.listening) }
                if state.failed { return .failure(APIError(.serviceUnavailable, "not_listening", "The API server stopped before it was listening.")) }
                state.waiters.append(continuation)
                return nil
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }

    private static func takeReady(_ state: inout State) -> ([CheckedContinuation<APIServer.Listening, any Error>], APIServer.Listening)? {
        guard state.reported >= state.expected else { return nil }
        defer { state.waiters.removeAll() }
        return (state.waiters, state.listening)
    }
}
