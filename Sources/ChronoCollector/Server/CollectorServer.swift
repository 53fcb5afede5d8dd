import ChronoAPI
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `chronoception collector`: the collector's router served on a Unix socket and on TCP, like the
/// device API (`APIServer`), over a `CollectorStore`.
public final class CollectorServer: Sendable {
    let store: any CollectorStore
    let configuration: CollectorServerConfiguration
    let logger: Logger
    private let serviceGroup = Mutex<ServiceGroup?>(nil)
    private let stopRequested = Mutex(false)
    private let readiness = Readiness()

    public init(store: any CollectorStore, configuration: CollectorServerConfiguration, logger: Logger? = nil) {
        var fallback = Logger(label: "chronoception.collector")
        fallback.logLevel = .warning
        self.logger = logger ?? fallback
        self.store = store
        self.configuration = configuration
    }

    /// Serves until `shutdown()`, a signal (when configured) or cancellation.
    public func run() async throws {
        let responder = CollectorRouter.make(store: store, configuration: configuration).buildResponder()
        var services: [any Service] = []
        var expected = 0
        if let path = configuration.socketPath {
            try UnixSocketFile.prepare(path)
            expected += 1
            services.append(Application(
                responder: responder, configuration: .init(address: .unixDomainSocket(path: path), serverName: nil),
                onServerRunning: { [readiness] _ in
                    chmod(path, 0o660)
                    readiness.report(socketPath: path)
                },
                logger: logger))
        }
        if let tcp = configuration.tcp {
            expected += 1
            services.append(Application(
                responder: responder, configuration: .init(address: .hostname(tcp.host, port: tcp.port), serverName: nil, reuseAddress: true),
                onServerRunning: { [readiness] channel in
                    readiness.report(tcp: TCPAddress(host: tcp.host, port: channel.localAddress?.port ?? tcp.port))
                },
                logger: logger))
        }
        readiness.expect(expected)
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
        } catch {
            throw APIError(.internalServerError, "listen_failed", "Cannot listen on \(configuration.tcp.map(\.description) ?? configuration.socketPath ?? "?"): \(error). Is another collector serving it? Choose another with --listen ADDR:PORT or --socket PATH.")
        }
    }

    /// Waits until every listener is open and says where.
    public func listening() async throws -> APIServer.Listening {
        try await readiness.wait()
    }

    public func shutdown() async {
        stopRequested.withLock { $0 = true }
        if let group = serviceGroup.withLock({ $0 }) { await group.triggerGracefulShutdown() }
    }
}
