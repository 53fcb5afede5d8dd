import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// How a sync request reaches a collector: one POST of a JSON body, its status and body back. The
/// HTTP client is the product's; tests may put something else here.
public protocol CollectorTransport: Sendable {
    /// Sends `body` to `path`; throws `SyncFailure` (`noRoute`) when no answer came.
    func post(_ path: String, body: Data, bearer: String?) async throws(SyncFailure) -> (status: Int, body: Data)
}

/// The device's HTTP/1.1 client of a collector over TCP, on SwiftNIO's HTTP/1 codec like the control
/// verbs' client (the release binary carries no other HTTP client library). One request per
/// connection, `Connection: close`: a device sends a batch every few minutes at most.
public struct CollectorClient: CollectorTransport {
    public let url: CollectorURL
    /// Giving up on a connection that is not established by then (a host that drops packets).
    var connectTimeout: TimeAmount = .seconds(5)
    /// Giving up on the whole exchange (a collector that accepts and never answers).
    var exchangeTimeout: TimeAmount = .seconds(60)
    /// The largest answer read (a receipt is small; anything bigger is not a collector).
    static let maximumAnswerBytes = 1 << 20

    public func post(_ path: String, body: Data, bearer: String?) async throws(SyncFailure) -> (status: Int, body: Data) {
        let where_ = "\(url.host):\(url.port)"
        let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
        let tlsErrors = TLSErrorRecorder()
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(connectTimeout)
                .connect(host: url.host, port: url.port) { [url, tlsErrors] channel in
                    channel.eventLoop.makeCompletedFuture {
                        if url.usesTLS {
                            // SNI and the name check need a host name; an IP address is checked as one.
                            let isAddress = (try? SocketAddress(ipAddress: url.host, port: 0)) != nil
                            try channel.pipeline.syncOperations.addHandler(
                                NIOSSLClientHandler(context: try Self.tlsContext(), serverHostname: isAddress ? nil : url.host))
                            try channel.pipeline.syncOperations.addHandler(tlsErrors)
                        }
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw SyncFailure(kind: .noRoute, detail: "cannot connect to the collector at \(where_) (\(Self.reason(error)))")
        }
        let expired = ExpiryFlag()
        let timer = channel.channel.eventLoop.scheduleTask(in: exchangeTimeout) {
            expired.set()
            channel.channel.close(promise: nil)
        }
        defer { timer.cancel() }
        do {
            return try await channel.executeThenClose { inbound, outbound in
                var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: url.prefix + path)
                head.headers.add(name: "Host", value: url.port == 80 ? url.host : "\(url.host):\(url.port)")
                head.headers.add(name: "Connection", value: "close")
                head.headers.add(name: "Content-Type", value: "application/json")
                head.headers.add(name: "Accept", value: "application/json")
                head.headers.add(name: "Content-Length", value: String(body.count))
                if let bearer { head.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
                try await outbound.write(.head(head))
                try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body))))
                try await outbound.write(.end(nil))
                var status: Int?
                var answer = ByteBuffer()
                for try await part in inbound {
                    switch part {
                    case .head(let response): status = Int(response.status.code)
                    case .body(var piece):
                        guard answer.readableBytes + piece.readableBytes <= Self.maximumAnswerBytes else {
                            throw SyncFailure(kind: .notACollector, detail: "the answer from \(where_) is larger than any collector's")
                        }
                        answer.writeBuffer(&piece)
                    case .end:
                        return (status ?? 0, Data(answer.readableBytesView))
                    }
                }
                throw SyncFailure(kind: .noRoute, detail: "the collector at \(where_) closed the connection before answering")
            }
        } catch let failure as SyncFailure {
            if expired.isSet { throw Self.timedOut(where_, exchangeTimeout) }
            if failure.kind == .noRoute, let tls = tlsErrors.first {
                throw Self.handshakeFailed(where_, tls)
            }
            throw failure
        } catch {
            if expired.isSet { throw Self.timedOut(where_, exchangeTimeout) }
            // The handshake's own error, even when a write on the channel it closed failed first.
            if let tls = Self.isTLSError(error) ? error : tlsErrors.first {
                throw Self.handshakeFailed(where_, tls)
            }
            throw SyncFailure(kind: .noRoute, detail: "the exchange with the collector at \(where_) failed (\(Self.reason(error)))")
        }
    }

    /// Whether `error` is the TLS library's: BoringSSL's reasons, NIOSSL's own (an unclean
    /// shutdown), or a certificate from a trusted CA that names another host
    /// (`failedToValidateHostname`, which NIOSSL reports after the handshake as its own type).
    static func isTLSError(_ error: any Error) -> Bool {
        error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError
    }

    private static func handshakeFailed(_ where_: String, _ tls: any Error) -> SyncFailure {
        SyncFailure(kind: .tlsFailed, detail: "the TLS handshake with \(where_) failed: \(TLSFailureWords.reason(String(describing: tls)))")
    }

    /// The client's TLS context: TLS 1.2 or later, certificates checked against the system's
    /// trusted CAs (/etc/ssl/certs) and the URL's host name. Made once per exchange (a push is rare).
    static func tlsContext() throws -> NIOSSLContext {
        try NIOSSLContext(configuration: .makeClientConfiguration())
    }

    private static func timedOut(_ where_: String, _ timeout: TimeAmount) -> SyncFailure {
        SyncFailure(kind: .noRoute, detail: "the collector at \(where_) did not answer within \(timeout.nanoseconds / 1_000_000_000) s")
    }

    /// The network's reason in a few words (NIO's errors describe themselves at length).
    static func reason(_ error: any Error) -> String {
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)) }
        if let connection = error as? NIOConnectionError {
            if let first = connection.connectionErrors.first { return reason(first.error) }
            if connection.dnsAAAAError != nil || connection.dnsAError != nil { return "the host name does not resolve" }
            return "no address to connect to"
        }
        if let channel = error as? ChannelError, case .connectTimeout(let amount) = channel {
            return "no connection within \(amount.nanoseconds / 1_000_000_000) s"
        }
        if error is SocketAddressError { return "the host name does not resolve" }
        return String(describing: error)
    }
}

/// Set once by the exchange timer, read by the request: whether the timeout closed the connection.
private final class ExpiryFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}

extension CollectorClient {
    /// A client for the collector at `url`, with the default timeouts.
    public init(url: CollectorURL) {
        self.url = url
    }
}
