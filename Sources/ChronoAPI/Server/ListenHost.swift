import NIOCore

/// What a listen address's host text is, which decides how it becomes a socket address.
///
/// A numeric address binds as exactly that address family, whatever the interfaces are doing: it is
/// parsed, never looked up. A lookup (getaddrinfo with glibc's default AI_V4MAPPED | AI_ADDRCONFIG)
/// answers `0.0.0.0` with the IPv4-mapped `::ffff:0.0.0.0` while the machine has only an IPv6
/// address — a Pi whose service starts before DHCP — and the socket then is an IPv6 one that shows
/// every client as `::ffff:a.b.c.d`. Only names (`localhost`, a host name) are looked up.
public enum ListenHost: Hashable, Sendable {
    case ipv4
    case ipv6
    case name

    /// Decides from the text alone (NIO's parse, inet_pton): an IPv4 dotted quad, an IPv6 literal
    /// (without brackets; a `%zone` is allowed), or else a name.
    public init(_ host: String) {
        if (try? SocketAddress(ipAddress: host, port: 0)) != nil {
            self = host.contains(":") ? .ipv6 : .ipv4
        } else {
            self = .name
        }
    }

    /// The socket address to bind `host`:`port`: a numeric host parsed as it is, only a name given to
    /// `resolve` (NIO's getaddrinfo lookup; tests pass their own). Throws NIO's `SocketAddressError`
    /// when a name does not resolve.
    public static func socketAddress(host: String, port: Int,
                                     resolve: (String, Int) throws -> SocketAddress = SocketAddress.makeAddressResolvingHost)
        throws -> SocketAddress {
        switch ListenHost(host) {
        case .ipv4, .ipv6: try SocketAddress(ipAddress: host, port: port)
        case .name: try resolve(host, port)
        }
    }
}
