@testable import ChronoAPI
import ChronoCore
import Testing

/// The pairing limits as a pure value: per asking address, on a clock the test moves.
@Suite("Pairing limits per address")
struct PairingLimitsTests {
    static func second(_ value: Double) -> MonotonicInstant { MonotonicInstant(nanoseconds: Int64((value * 1e9).rounded())) }

    @Test("one address's flood is limited to 5 a minute and does not touch another address's budget")
    func perAddressBudget() {
        var limits = PairingLimits(limit: 5, window: .seconds(60))
        let flood = "203.0.113.9"
        #expect(limits.admit(address: flood, now: Self.second(0)) == .admitted)
        for tick in 1...4 { #expect(limits.admit(address: flood, now: Self.second(Double(tick))) == .alreadyPending) }
        #expect(limits.admit(address: flood, now: Self.second(5)) == .tooMany(retryAfterSeconds: 55))
        #expect(limits.admit(address: flood, now: Self.second(59.5)) == .tooMany(retryAfterSeconds: 1))
        // Another peer, and the owner on loopback and the Unix socket, are admitted all the while.
        #expect(limits.admit(address: "192.168.1.20", now: Self.second(6)) == .admitted)
        #expect(limits.admit(address: PairingAddress.loopback, now: Self.second(7)) == .admitted)
        #expect(limits.admit(address: PairingAddress.unixSocket, now: Self.second(8)) == .admitted)
        // A minute after its first request the flood's oldest has left the window.
        limits.finish(address: flood)
        #expect(limits.admit(address: flood, now: Self.second(60)) == .admitted)
        #expect(limits.recent[flood]?.count == 5)
    }

    @Test("remote requests waiting together are capped; the local owner is never counted against the cap")
    func waitingCap() {
        var limits = PairingLimits(limit: 5, window: .seconds(60), remoteWaitingLimit: 2)
        #expect(limits.admit(address: "10.0.0.1", now: Self.second(0)) == .admitted)
        #expect(limits.admit(address: "10.0.0.2", now: Self.second(0)) == .admitted)
        #expect(limits.admit(address: "10.0.0.3", now: Self.second(0)) == .tooManyWaiting(2))
        #expect(limits.admit(address: PairingAddress.loopback, now: Self.second(0)) == .admitted)
        limits.finish(address: "10.0.0.1")
        #expect(limits.admit(address: "10.0.0.3", now: Self.second(1)) == .admitted)
        #expect(limits.waiting == ["10.0.0.2", "10.0.0.3", PairingAddress.loopback])
    }

    @Test("addresses that asked only before the window are forgotten")
    func forgetting() {
        var limits = PairingLimits(limit: 5, window: .seconds(60))
        for index in 0..<100 {
            let address = "198.51.100.\(index)"
            _ = limits.admit(address: address, now: Self.second(0))
            limits.finish(address: address)
        }
        #expect(limits.recent.count == 100)
        #expect(limits.admit(address: "192.168.1.20", now: Self.second(60)) == .admitted)
        #expect(Array(limits.recent.keys) == ["192.168.1.20"])
    }

    @Test("the peer's address names the request: IP, loopback or the Unix socket")
    func addresses() {
        #expect(PairingAddress.of(.remote("192.168.1.20")) == "192.168.1.20")
        #expect(PairingAddress.of(.loopback) == "loopback")
        #expect(PairingAddress.of(.unixSocket) == "unix-socket")
    }

    @Test("the gate reads its injected clock")
    func gateClock() {
        let gate = PairingGate(limit: 1, window: .seconds(60), clock: { Self.second(10) })
        #expect(gate.admit(address: "10.0.0.1") == .admitted)
        gate.finish(address: "10.0.0.1")
        #expect(gate.admit(address: "10.0.0.1") == .tooMany(retryAfterSeconds: 60))
    }
}
