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
        switch address {
        case .unixDomainSocket: self = .unixSocket
        case .v4(let v4): self = (v4.host.hasPrefix("127.") || address.ipAddress?.hasPrefix("127.") == true) ? .loopback : .remote(address.ipAddress ?? "?")
        case .v6:
            let text = address.ipAddress ?? ""
            self = (text == "::1" || text.hasPrefix("::ffff:127.")) ? .loopback : .remote(text)
        }
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
