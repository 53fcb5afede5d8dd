@testable import ChronoAPI
import Foundation
import NIOCore
import NIOEmbedded
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Connection caps: per remote address, remote in all, the owner's reserve; shed at once")
struct ConnectionLimitTests {
    static let small = ConnectionLimits(perRemoteAddress: 2, remoteTotal: 3, localTotal: 2)

    /// One connection through the handler, from `remote` (an IP address) or, with nil, the Unix socket.
    static func connect(_ counter: ConnectionCounter, from remote: String?) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: ConnectionLimit(counter: counter))
        let address: SocketAddress
        if let remote {
            address = try SocketAddress(ipAddress: remote, port: 40_000)
        } else {
            channel.localAddress = try SocketAddress(unixDomainSocketPath: "/run/chronoception/api.sock")
            address = try SocketAddress(unixDomainSocketPath: "/run/chronoception/api.sock")
        }
        channel.remoteAddress = address
        try channel.connect(to: address).wait()
        return channel
    }

    @Test("the caps follow the open-file limit: 64 a remote address, a quarter (≤ 1,024) remote, an eighth (≤ 256) the owner's")
    func derived() {
        #expect(ConnectionLimits(descriptorLimit: 1024) == ConnectionLimits(perRemoteAddress: 64, remoteTotal: 256, localTotal: 128))
        #expect(ConnectionLimits(descriptorLimit: 524_288) == ConnectionLimits(perRemoteAddress: 64, remoteTotal: 1024, localTotal: 256))
        #expect(ConnectionLimits(descriptorLimit: 64) == ConnectionLimits(perRemoteAddress: 4, remoteTotal: 16, localTotal: 8))
        // Never zero, however low the limit, and no overflow at "unlimited".
        #expect(ConnectionLimits(descriptorLimit: 0) == ConnectionLimits(perRemoteAddress: 1, remoteTotal: 1, localTotal: 1))
        #expect(ConnectionLimits(descriptorLimit: UInt64.max).remoteTotal == 1024)
    }

    @Test("one remote address holds at most its share; another address still gets in until the remote total")
    func perAddressAndTotal() throws {
        let counter = ConnectionCounter(limits: Self.small)
        let a1 = try Self.connect(counter, from: "10.0.0.1")
        let a2 = try Self.connect(counter, from: "10.0.0.1")
        let a3 = try Self.connect(counter, from: "10.0.0.1")
        #expect(a1.isActive && a2.isActive)
        #expect(!a3.isActive, "a third connection from one address is shed")
        let b1 = try Self.connect(counter, from: "10.0.0.2")
        #expect(b1.isActive)
        let c1 = try Self.connect(counter, from: "10.0.0.3")
        #expect(!c1.isActive, "the remote total (3) is reached")
        #expect(counter.held == (owner: 0, remote: 3, addresses: 2))
        for channel in [a1, a2, b1] { _ = try? channel.finish() }
    }

    @Test("a closed connection gives its share back; a shed one never held any")
    func releaseOnClose() throws {
        let counter = ConnectionCounter(limits: Self.small)
        let first = try Self.connect(counter, from: "10.0.0.1")
        let second = try Self.connect(counter, from: "10.0.0.1")
        let shed = try Self.connect(counter, from: "10.0.0.1")
        #expect(!shed.isActive)
        #expect(counter.held.remote == 2)
        try first.close().wait()
        #expect(counter.held == (owner: 0, remote: 1, addresses: 1))
        let again = try Self.connect(counter, from: "10.0.0.1")
        #expect(again.isActive)
        try second.close().wait()
        try again.close().wait()
        #expect(counter.held == (owner: 0, remote: 0, addresses: 0))
    }

    @Test("a remote flood cannot take the owner's reserve: loopback and the Unix socket count apart, and have their own cap")
    func ownerReserve() throws {
        let counter = ConnectionCounter(limits: Self.small)
        let flood = try ["10.0.0.1", "10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"].map { try Self.connect(counter, from: $0) }
        #expect(flood.filter(\.isActive).count == 3)
        let loopback = try Self.connect(counter, from: "127.0.0.1")
        let socket = try Self.connect(counter, from: nil)
        #expect(loopback.isActive && socket.isActive)
        // The IPv4-mapped form of loopback (a `[::]` listener) is the owner too.
        let mapped = try Self.connect(counter, from: "::ffff:127.0.0.1")
        #expect(!mapped.isActive, "the owner's own cap (2) is reached")
        #expect(counter.held == (owner: 2, remote: 3, addresses: 2))
        for channel in flood + [loopback, socket] where channel.isActive { _ = try? channel.finish() }
    }

    @Test("a shed connection's later handlers never hear it became active")
    func shedNotPassedOn() throws {
        let counter = ConnectionCounter(limits: ConnectionLimits(perRemoteAddress: 1, remoteTotal: 1, localTotal: 1))
        let held = try Self.connect(counter, from: "10.0.0.1")
        let witness = ActiveWitness()
        let channel = EmbeddedChannel(handlers: [ConnectionLimit(counter: counter), witness])
        let address = try SocketAddress(ipAddress: "10.0.0.9", port: 1)
        channel.remoteAddress = address
        try channel.connect(to: address).wait()
        #expect(!channel.isActive)
        #expect(witness.activations == 0)
        _ = try? held.finish()
    }

    @Test("on a real server: the owner's connections beyond its cap are closed as soon as they are accepted, and a freed one lets the next in")
    func realServer() async throws {
        try await APIHarness.with(configure: { $0.connectionLimits = ConnectionLimits(perRemoteAddress: 2, remoteTotal: 2, localTotal: 3) }) { api in
            #expect(api.server.connections.limits.localTotal == 3)
            let held = try (0..<3).map { _ in try RawConnection(port: api.port) }
            try await Self.waitUntil { api.server.connections.held.owner == 3 }
            let shed = try RawConnection(port: api.port)
            #expect(shed.closedByServer(within: 5), "the fourth loopback connection is closed at once")
            #expect(held.allSatisfy { !$0.closedByServer(within: 0.05) }, "the three held ones stay open")
            held[0].close()
            try await Self.waitUntil { api.server.connections.held.owner == 2 }
            #expect(try await api.request("/api/v1/device").status == 200)
            held.dropFirst().forEach { $0.close() }
            shed.close()
        }
    }

    static func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            try #require(ContinuousClock.now < deadline, "not within 10 s")
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}

private final class ActiveWitness: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = Any
    var activations = 0

    func channelActive(context: ChannelHandlerContext) {
        activations += 1
        context.fireChannelActive()
    }
}

/// A plain TCP connection to loopback that sends nothing (an idle client, as a flood holds them).
private final class RawConnection {
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0, "connect to 127.0.0.1:\(port): errno \(errno)")
    }

    /// True when the server closes the connection (reading gives end-of-file or a reset) within `seconds`.
    func closedByServer(within seconds: Double) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(seconds * 1000)) == 1 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) <= 0
    }

    func close() { Glibc.close(fd) }
}
