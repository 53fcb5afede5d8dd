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
    private let listeners: HTTPListeners

    public init(store: ChronoStore, device: any DeviceControl, configuration: APIServerConfiguration, logger: Logger? = nil) {
        var fallback = Logger(label: "chronoception.api")
        fallback.logLevel = .warning
        self.logger = logger ?? fallback
        self.configuration = configuration
        self.state = APIState(store: store, device: device, configuration: configuration)
        listeners = HTTPListeners(socketPath: configuration.socketPath, tcp: configuration.tcp, who: "chronoception",
                                  connectionLimits: configuration.connectionLimits)
    }

    /// Serves until `shutdown()` or cancellation. Throws when a listener cannot be opened (the
    /// message names the address and the fix).
    public func run() async throws {
        let responder = APIRouter.make(state).buildResponder()
        try await listeners.serve(responder, alsoRun: [state.events], stopOnSignals: configuration.stopOnSignals, logger: logger)
    }

    /// The connections held now, against their caps.
    public var connections: ConnectionCounter { listeners.connections }

    /// Waits until every listener is open and says where; throws if the server stopped first.
    public func listening() async throws -> Listening {
        try await listeners.listening()
    }

    /// Stops gracefully: live-event streams end, requests in flight finish, listeners close.
    public func shutdown() async {
        // The graceful shutdown stops the event hub first (last in the group's list), which ends the
        // streams before the listeners wait for requests in flight. Closing it here first instead
        // made it return before the shutdown began: the group took that for a failure, cancelled
        // everything and logged errors on a clean stop. Closed again after, for a server that
        // never started.
        await listeners.shutdown()
        state.events.close()
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
