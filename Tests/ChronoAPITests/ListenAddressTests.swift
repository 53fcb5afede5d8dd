@testable import ChronoAPI
import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import Testing

/// A numeric `--listen` address binds as exactly that address family, whatever the interfaces are
/// doing (a Pi's service starts before DHCP, when a lookup of `0.0.0.0` answers `::ffff:0.0.0.0`),
/// and an IPv4 client that arrives IPv4-mapped is named by its plain IPv4 address.
@Suite("Listen addresses and peers")
struct ListenAddressTests {
    /// What glibc's getaddrinfo answered for `0.0.0.0` on the first-hour test's guest before DHCP.
    static func mappedLookup(_ host: String, _ port: Int) throws -> SocketAddress {
        try SocketAddress(ipAddress: "::ffff:0.0.0.0", port: port)
    }

    @Test("a host is IPv4 or IPv6 by its text alone, else a name")
    func decision() {
        #expect(ListenHost("0.0.0.0") == .ipv4)
        #expect(ListenHost("10.77.0.1") == .ipv4)
        #expect(ListenHost("127.0.0.1") == .ipv4)
        #expect(ListenHost("::") == .ipv6)
        #expect(ListenHost("::1") == .ipv6)
        #expect(ListenHost("fd00::2") == .ipv6)
        #expect(ListenHost("::ffff:10.77.0.1") == .ipv6)
        #expect(ListenHost("localhost") == .name)
        #expect(ListenHost("chronoception.local") == .name)
        #expect(ListenHost("fe80::1%lo") == .ipv6)
        // Not a literal inet_pton takes (the old short IPv4 form): the lookup decides.
        #expect(ListenHost("10.1") == .name)
        #expect(ListenHost("") == .name)
    }

    @Test("a numeric host is never looked up: 0.0.0.0 stays IPv4 when the lookup would map it")
    func numericIsNotLookedUp() throws {
        let any4 = try ListenHost.socketAddress(host: "0.0.0.0", port: 8737, resolve: Self.mappedLookup)
        guard case .v4 = any4 else { Issue.record("0.0.0.0 bound as \(any4)"); return }
        #expect(any4.ipAddress == "0.0.0.0")
        #expect(any4.port == 8737)
        let any6 = try ListenHost.socketAddress(host: "::", port: 8737, resolve: Self.mappedLookup)
        guard case .v6 = any6 else { Issue.record(":: bound as \(any6)"); return }
        #expect(any6.ipAddress == "::")
        // A name is the lookup's business.
        let named = try ListenHost.socketAddress(host: "localhost", port: 8737, resolve: Self.mappedLookup)
        #expect(named.ipAddress == "::ffff:0.0.0.0")
    }

    /// Serves a one-route router on `host`:0; returns the bound socket address and one answer's status and Date header.
    static func bound(_ host: String) async throws -> (address: SocketAddress, status: Int, date: String?) {
        let router = Router(context: APIRequestContext.self)
        router.get("/") { _, _ in "ok" }
        let listeners = HTTPListeners(socketPath: nil, tcp: TCPAddress(host: host, port: 0), who: "test")
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let serving = Task { try await listeners.serve(router.buildResponder(), stopOnSignals: false, logger: logger) }
        defer { serving.cancel() }
        let port = try #require(try await listeners.listening().tcp?.port)
        let address = try #require(listeners.tcpSocketAddress)
        let loopback = host.contains(":") ? "[::1]" : "127.0.0.1"
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let response = try await client.execute(HTTPClientRequest(url: "http://\(loopback):\(port)/"), timeout: .seconds(10))
        try await client.shutdown()
        await listeners.shutdown()
        _ = try? await serving.value
        return (address, Int(response.status.code), response.headers.first(name: "Date"))
    }

    @Test("a 0.0.0.0 listener is an IPv4 socket and [::] an IPv6 one, and both answer")
    func listenerFamily() async throws {
        let any4 = try await Self.bound("0.0.0.0")
        guard case .v4 = any4.address else { Issue.record("0.0.0.0 bound as \(any4.address)"); return }
        #expect(any4.address.ipAddress == "0.0.0.0")
        #expect(any4.status == 200)
        // IMF-fixdate, as Hummingbird's own server writes it: "Thu, 26 Nov 2026 09:50:00 GMT".
        let date = try #require(any4.date)
        #expect(date.count == 29 && date.hasSuffix(" GMT") && date.dropFirst(3).hasPrefix(", "), "Date: \(date)")
        let any6 = try await Self.bound("::")
        guard case .v6 = any6.address else { Issue.record(":: bound as \(any6.address)"); return }
        #expect(any6.address.ipAddress == "::")
        #expect(any6.status == 200)
    }

    @Test("an IPv4 client that arrives IPv4-mapped is named by its IPv4 address for pairing and the failed-key ledger")
    func mappedPeer() throws {
        let mapped = RequestPeer(remote: try SocketAddress(ipAddress: "::ffff:10.77.0.1", port: 50_000))
        #expect(mapped == .remote("10.77.0.1"))
        #expect(PairingAddress.of(mapped) == "10.77.0.1")
        #expect(FailedAuthLedger.addressKey(mapped) == "10.77.0.1")
        #expect(RequestPeer(remote: try SocketAddress(ipAddress: "10.77.0.1", port: 50_000)) == .remote("10.77.0.1"))
        #expect(RequestPeer(remote: try SocketAddress(ipAddress: "::ffff:127.0.0.1", port: 1)) == .loopback)
        #expect(RequestPeer(remote: try SocketAddress(ipAddress: "::1", port: 1)) == .loopback)
        #expect(RequestPeer(remote: try SocketAddress(ipAddress: "fd00::2", port: 1)) == .remote("fd00::2"))
        // Only the mapped form is unwrapped: an IPv6 address that merely starts alike stays.
        #expect(RequestPeer.unmapped("::ffff:a0a:1") == "::ffff:a0a:1")
        #expect(RequestPeer.unmapped("::FFFF:10.0.0.9") == "10.0.0.9")
    }
}
