import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Serves one responder the way every server of this program does — the device API and the
/// collector: on a Unix socket (mode 0660; a stale socket replaced, a live one refused) and/or on TCP,
/// under one `ServiceGroup`; says where it listens once every listener is open; stops gracefully on
/// `shutdown()` and removes its socket. One place, so the two servers cannot drift apart.
///
/// Every connection has an idle timeout (Hummingbird's HTTP/1 `idleTimeout`): one that sends nothing,
/// or sends a request's head byte by byte, is closed `idleTimeout` after it opened or after its last
/// answer. Hummingbird only counts a *whole* head as activity, so the same timeout bounds the total
/// time a head may take; a streaming answer (the live events) is not idle and stays open. Each body
/// chunk does count, so a request may also take at most `requestArrivalLimit` to arrive
/// (`RequestArrivalLimit`): a body dripped a byte at a time is cut there.
///
/// Every connection also draws on one `ConnectionCounter` for all the listeners: beyond its caps
/// (`ConnectionLimits`: per remote address, all remote, and the owner's reserve on the Unix socket and
/// loopback) a new connection is closed as soon as it is accepted (`ConnectionLimit`).
///
/// A stop is quiet: `shutdown()` returns only once the service group has ended gracefully, so a caller
/// that cancels its serving task afterwards cancels nothing. (Cancelling Hummingbird mid-way through a
/// graceful stop logs `CancellationError()` and "Server shutdown error: Already closed" as errors.)
/// A graceful stop held up longer than `maximumGracefulShutdown` (a request still arriving) turns
/// into cancellation, which is then logged, as it should be.
public final class HTTPListeners: Sendable {
    /// 30 s: far longer than any client of these servers pauses inside a request, short enough that a
    /// Pi's file descriptors cannot be held by connections that say nothing (issue 20).
    public static let defaultIdleTimeout: TimeAmount = .seconds(30)
    /// 120 s: a collector's largest batch (8 MiB) at 70 KB/s; the device's bodies are 16 KiB at most.
    public static let defaultRequestArrivalLimit: TimeAmount = .seconds(120)
    /// 10 s: requests in flight finish, live streams have ended; within systemd's 90 s stop timeout.
    public static let maximumGracefulShutdown: Duration = .seconds(10)
    public let socketPath: String?
    public let tcp: TCPAddress?
    public let idleTimeout: TimeAmount
    public let requestArrivalLimit: TimeAmount
    /// The connections held now, against their caps.
    public let connections: ConnectionCounter
    /// Named in the "cannot listen" message's fix: "Is another <who> serving it?".
    let who: String
    private let serviceGroup = Mutex<ServiceGroup?>(nil)
    private let boundTCP = Mutex<SocketAddress?>(nil)
    private let stopRequested = Mutex(false)
    private let readiness = Readiness()
    private let ended = EndLatch()

    public init(socketPath: String?, tcp: TCPAddress?, who: String, idleTimeout: TimeAmount = HTTPListeners.defaultIdleTimeout,
                requestArrivalLimit: TimeAmount = HTTPListeners.defaultRequestArrivalLimit,
                connectionLimits: ConnectionLimits? = nil) {
        self.connections = ConnectionCounter(limits: connectionLimits ?? .forCurrentDescriptorLimit())
        self.socketPath = socketPath
        self.tcp = tcp
        self.idleTimeout = idleTimeout
        self.requestArrivalLimit = requestArrivalLimit
        self.who = who
    }

    /// Serves `responder` until `shutdown()`, a stop signal (with `stopOnSignals`) or cancellation.
    /// `alsoRun` are services that live as long as the listeners and stop before them (live-event
    /// streams end before the listeners drain). Throws an `APIError` naming the address and the fix.
    public func serve<Responder: HTTPResponder>(_ responder: Responder, alsoRun: [any Service] = [], stopOnSignals: Bool,
                                                logger: Logger) async throws
    where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        var services: [any Service] = []
        var expected = 0
        let idleTimeout = self.idleTimeout, arrivalLimit = requestArrivalLimit, counter = connections
        if let path = socketPath {
            do {
                try UnixSocketFile.prepare(path)
            } catch {
                // Nothing was opened: whoever waits in `listening()` or `shutdown()` hears it now
                // (the socket is not ours to remove — it may be another server's).
                readiness.fail()
                ended.open()
                throw error
            }
            expected += 1
            services.append(Application(
                responder: responder,
                server: .http1(configuration: .init(additionalChannelHandlers: [RequestArrivalLimit.Installer(limit: arrivalLimit),
                                                                                ConnectionLimit.Installer(counter: counter)],
                                                    idleTimeout: idleTimeout)),
                configuration: .init(address: .unixDomainSocket(path: path), serverName: nil),
                onServerRunning: { [readiness] _ in
                    chmod(path, 0o660)
                    readiness.report(socketPath: path)
                },
                logger: logger))
        }
        if let tcp {
            expected += 1
            // Not Hummingbird's `.hostname`, which looks even a numeric address up (see `ListenHost`).
            services.append(TCPHTTPServer(
                host: tcp.host, port: tcp.port, responder: responder,
                configuration: .init(additionalChannelHandlers: [RequestArrivalLimit.Installer(limit: arrivalLimit)], idleTimeout: idleTimeout),
                counter: counter,
                onServerRunning: { [readiness, self] channel in
                    self.boundTCP.withLock { $0 = channel.localAddress }
                    readiness.report(tcp: TCPAddress(host: tcp.host, port: channel.localAddress?.port ?? tcp.port))
                },
                logger: logger))
        }
        readiness.expect(expected)
        // Last in the list, so first to stop.
        services += alsoRun
        // A service that returns by itself (the event hub once closed) ends the group gracefully
        // rather than as a failure that cancels the rest mid-request.
        var groupConfiguration = ServiceGroupConfiguration(
            services: services.map { .init(service: $0, successTerminationBehavior: .gracefullyShutdownGroup) },
            gracefulShutdownSignals: stopOnSignals ? [.sigterm, .sigint] : [],
            logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = Self.maximumGracefulShutdown
        let group = ServiceGroup(configuration: groupConfiguration)
        serviceGroup.withLock { $0 = group }
        defer {
            if let path = socketPath { unlink(path) }
            readiness.fail()
            ended.open()
        }
        if stopRequested.withLock({ $0 }) { return }
        do {
            try await group.run()
        } catch let error as ServiceGroupError {
            throw APIError(.internalServerError, "listen_failed", "The \(who) could not keep listening: \(error).")
        } catch {
            throw APIError(.internalServerError, "listen_failed", "Cannot listen on \(tcp.map(\.description) ?? socketPath ?? "?"): \(error). Is another \(who) serving it? Choose another with --listen ADDR:PORT or --socket PATH.")
        }
    }

    /// The socket address the TCP listener is bound to, once it is open: its family is the listen
    /// address's own (`ListenHost`).
    public var tcpSocketAddress: SocketAddress? { boundTCP.withLock { $0 } }

    /// Waits until every listener is open and says where; throws if serving stopped first.
    public func listening() async throws -> APIServer.Listening {
        try await readiness.wait()
    }

    /// Stops gracefully: requests in flight finish, listeners close; returns when serving has ended
    /// (at once when it never started).
    public func shutdown() async {
        stopRequested.withLock { $0 = true }
        if let group = serviceGroup.withLock({ $0 }) {
            await group.triggerGracefulShutdown()
            await ended.wait()
        }
    }
}

/// Opens once, when `serve` returns; `shutdown()` waits on it.
private final class EndLatch: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if isOpen { continuation.resume() }
        }
    }
}
