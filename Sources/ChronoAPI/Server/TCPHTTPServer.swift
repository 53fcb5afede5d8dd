import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Serves one responder over HTTP/1 on a TCP socket bound to exactly `ListenHost.socketAddress`'s
/// answer — what Hummingbird's `Application` does for `.hostname`, except that Hummingbird 2 binds
/// only by looking the text up, and a lookup turns `0.0.0.0` into an IPv6 socket on a machine with
/// no IPv4 address yet (see `ListenHost`). The connections are Hummingbird's own `HTTP1Channel`
/// (the same parser, idle timeout and extra handlers as the Unix socket's server), and each request
/// is answered the way `Application` answers it: a context from the channel, an unexpected error
/// as an empty 500, a `Date` header.
///
/// Connections beyond `connections`' caps are shed as they are accepted, before anything is built
/// for them (`ConnectionLimit.admitting`); the backlog is the kernel's largest
/// (`net.core.somaxconn`, 4,096 by default), so that a burst of connection attempts waits to be shed
/// instead of having the owner's own attempt dropped, which would cost it a second (SYN retried).
///
/// A graceful stop closes the listening socket and asks every open connection to close once its
/// answer is written (NIO's `ChannelShouldQuiesceEvent`, which Hummingbird's connection handler
/// obeys); `run()` returns when the last connection has closed.
final class TCPHTTPServer<Responder: HTTPResponder>: Service
where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
    let host: String
    let port: Int
    let responder: Responder
    let configuration: HTTP1Channel.Configuration
    let onServerRunning: @Sendable (any Channel) async -> Void
    let logger: Logger
    let counter: ConnectionCounter
    private let connections = Connections()

    /// 4,096: Linux caps a listen backlog at `net.core.somaxconn` (4,096 by default since 5.4).
    static var backlog: Int32 { 4096 }

    init(host: String, port: Int, responder: Responder, configuration: HTTP1Channel.Configuration, counter: ConnectionCounter,
         onServerRunning: @escaping @Sendable (any Channel) async -> Void, logger: Logger) {
        self.counter = counter
        self.host = host
        self.port = port
        self.responder = responder
        self.configuration = configuration
        self.onServerRunning = onServerRunning
        self.logger = logger
    }

    func run() async throws {
        let address = try ListenHost.socketAddress(host: host, port: port)
        let logger = self.logger, connections = self.connections, counter = self.counter
        let http1 = HTTP1Channel(responder: Self.answer(with: responder, logger: logger), configuration: configuration)
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.backlog, value: Self.backlog)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .bind(to: address) { (channel: any Channel) -> EventLoopFuture<HTTP1Channel.Value> in
                guard let limit = ConnectionLimit.admitting(channel, counter: counter) else {
                    // Not yet registered: closing it here closes the socket, and the failed future
                    // keeps it from ever reaching the loop below.
                    channel.close(promise: nil)
                    return channel.eventLoop.makeFailedFuture(ConnectionShed())
                }
                do {
                    try channel.pipeline.syncOperations.addHandler(limit, position: .first)
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
                return http1.setup(channel: channel, logger: logger).map { value in
                    connections.opened(channel)
                    return value
                }
            }
        await withGracefulShutdownHandler {
            await onServerRunning(server.channel)
            await withDiscardingTaskGroup { group in
                do {
                    try await server.executeThenClose { inbound in
                        for try await connection in inbound {
                            group.addTask { await http1.handle(value: connection, logger: logger) }
                        }
                    }
                } catch {
                    logger.error("Waiting on child channel: \(error)")
                }
            }
        } onGracefulShutdown: {
            server.channel.close(promise: nil)
            connections.quiesce()
        }
    }

    /// `Application`'s answer to one request, over `responder`.
    private static func answer(with responder: Responder, logger: Logger) -> HTTPChannelHandler.Responder {
        { (request, responseWriter: consuming ResponseWriter, channel) in
            let context = Responder.Context(source: .init(channel: channel, logger: logger))
            var response: Response
            do {
                response = try await responder.respond(to: request, context: context)
            } catch let error as HTTPParserError {
                // Hummingbird answers a malformed request with 400 and closes the connection.
                throw error
            } catch {
                logger.debug("Unrecognised Error", metadata: ["error.type": "\(error)"])
                response = Response(status: .internalServerError, body: .init())
            }
            response.headers[.date] = HTTPDate.now()
            do {
                try await responseWriter.write(response: response.head, body: response.body)
            } catch is HTTPParserError {
                // Not the parser error itself: that would make Hummingbird write a second response.
                throw ConnectionFailedWhileAnswering()
            }
        }
    }
}

private struct ConnectionFailedWhileAnswering: Error {}

/// A connection closed as it was accepted: its holder's cap was reached.
private struct ConnectionShed: Error {}

/// The open connections, so a graceful stop can ask each to close after its answer.
private final class Connections: Sendable {
    private let state = Mutex<(quiescing: Bool, open: [ObjectIdentifier: any Channel])>((false, [:]))

    func opened(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let quiescing = state.withLock { state in
            if !state.quiescing { state.open[id] = channel }
            return state.quiescing
        }
        if quiescing {
            // Accepted as the stop began: it closes once its first answer is written.
            channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
            return
        }
        channel.closeFuture.whenComplete { [self] _ in
            state.withLock { _ = $0.open.removeValue(forKey: id) }
        }
    }

    func quiesce() {
        let open = state.withLock { state in
            state.quiescing = true
            defer { state.open.removeAll() }
            return Array(state.open.values)
        }
        for channel in open {
            channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
    }
}

/// The `Date` header's text (RFC 9110's IMF-fixdate) for now.
enum HTTPDate {
    static func now() -> String {
        var seconds = time(nil)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
