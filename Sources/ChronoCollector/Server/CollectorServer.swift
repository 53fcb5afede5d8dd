import ChronoAPI
import Hummingbird
import Logging

/// `chronoception-collector`: the collector's router over a `CollectorStore`, served by the same
/// `HTTPListeners` as the device API.
public final class CollectorServer: Sendable {
    let store: any CollectorStore
    let configuration: CollectorServerConfiguration
    let logger: Logger
    private let listeners: HTTPListeners

    public init(store: any CollectorStore, configuration: CollectorServerConfiguration, logger: Logger? = nil) {
        var fallback = Logger(label: "chronoception.collector")
        fallback.logLevel = .warning
        self.logger = logger ?? fallback
        self.store = store
        self.configuration = configuration
        listeners = HTTPListeners(socketPath: configuration.socketPath, tcp: configuration.tcp, who: "collector",
                                  connectionLimits: configuration.connectionLimits)
    }

    /// Serves until `shutdown()`, a signal (when configured) or cancellation.
    public func run() async throws {
        let responder = CollectorRouter.make(store: store, configuration: configuration).buildResponder()
        try await listeners.serve(responder, stopOnSignals: configuration.stopOnSignals, logger: logger)
    }

    /// The connections held now, against their caps.
    public var connections: ConnectionCounter { listeners.connections }

    /// Waits until every listener is open and says where.
    public func listening() async throws -> APIServer.Listening {
        try await listeners.listening()
    }

    public func shutdown() async {
        await listeners.shutdown()
    }
}
