import ChronoStore
import Hummingbird
import NIOCore

/// Where a request arrived from, as the access rules see it.
public enum RequestPeer: Hashable, Sendable {
    /// The Unix domain socket: whoever can open it (its mode and group) is the local user.
    case unixSocket
    /// A TCP connection from a loopback address.
    case loopback
    /// A TCP connection from anywhere else.
    case remote(String)

    public init(channel: any Channel) {
        if case .unixDomainSocket = channel.localAddress {
            self = .unixSocket
            return
        }
        guard let address = channel.remoteAddress else {
            self = .remote("unknown")
            return
        }
        self.init(remote: address)
    }

    /// A TCP peer. An IPv4 client of a dual-stack listener (`[::]:PORT`) arrives as the IPv4-mapped
    /// `::ffff:a.b.c.d`; it is named `a.b.c.d`, as it would be on an IPv4 listener, so every surface
    /// (the pairing request's shown address, its limits, the failed-key ledger) sees one form.
    public init(remote address: SocketAddress) {
        switch address {
        case .unixDomainSocket: self = .unixSocket
        case .v4, .v6:
            let text = Self.unmapped(address.ipAddress ?? "?")
            self = (text == "::1" || text.hasPrefix("127.")) ? .loopback : .remote(text)
        }
    }

    /// `a.b.c.d` for `::ffff:a.b.c.d`; any other text as it is.
    static func unmapped(_ text: String) -> String {
        let prefix = "::ffff:"
        guard text.lowercased().hasPrefix(prefix) else { return text }
        let inner = String(text.dropFirst(prefix.count))
        guard !inner.contains(":"), (try? SocketAddress(ipAddress: inner, port: 0)) != nil else { return text }
        return inner
    }
}

/// How a request was let in.
public enum RequestAccess: Hashable, Sendable {
    /// The local user (Unix socket, or loopback when loopback is trusted).
    case local
    /// A companion with this key.
    case key(APIKeyRecord)
}

/// The per-request context: where the request came from and, once checked, how it was let in.
public struct APIRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public let peer: RequestPeer
    public var access: RequestAccess?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = RequestPeer(channel: source.channel)
        access = nil
    }

    /// Small bodies only: the largest request the API takes is a settings change.
    public var maxUploadSize: Int { APIServer.maximumBodyBytes }
}
