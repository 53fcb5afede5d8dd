@testable import ChronoAPI
import ChronoCore
import ChronoTesting
import Foundation
import Testing

/// Failed authentication is limited per address (issue 20): the pure ledger on a hand-moved clock, then
/// the middleware on a real device API.
@Suite("Failed authentication is limited per address")
struct FailedAuthLimitTests {
    static let second: Int64 = 1_000_000_000
    static let limits = FailedAuthLimits(failures: 3, windowSeconds: 60, lockoutSeconds: 300, trackedAddresses: 4)

    @Test func theNthFailureInAWindowLocksTheAddressWithItsRetryAfter() {
        var ledger = FailedAuthLedger(limits: Self.limits)
        #expect(ledger.recordFailure(address: "192.0.2.7", credential: 1, now: 0) == nil)
        #expect(ledger.recordFailure(address: "192.0.2.7", credential: 2, now: 10 * Self.second) == nil)
        #expect(ledger.retryAfterSeconds(address: "192.0.2.7", now: 10 * Self.second) == nil)
        #expect(ledger.recordFailure(address: "192.0.2.7", credential: 3, now: 20 * Self.second) == 300)
        #expect(ledger.retryAfterSeconds(address: "192.0.2.7", now: 20 * Self.second) == 300)
        // Rounded up: 0.5 s left is 1 s to wait.
        #expect(ledger.retryAfterSeconds(address: "192.0.2.7", now: 319 * Self.second + Self.second / 2) == 1)
        #expect(ledger.retryAfterSeconds(address: "192.0.2.7", now: 320 * Self.second) == nil)
        // After the lockout the address starts again with its full allowance.
        #expect(ledger.recordFailure(address: "192.0.2.7", credential: 4, now: 321 * Self.second) == nil)
        #expect(ledger.recordFailure(address: "192.0.2.7", credential: 5, now: 322 * Self.second) == nil)
        #expect(ledger.recordFailure(address: "192.0.2.7", credential: 6, now: 323 * Self.second) == 300)
    }

    @Test func otherAddressesAreUnaffected() {
        var ledger = FailedAuthLedger(limits: Self.limits)
        for credential in 1...3 { ledger.recordFailure(address: "192.0.2.7", credential: credential, now: 0) }
        #expect(ledger.retryAfterSeconds(address: "192.0.2.7", now: 1) == 300)
        #expect(ledger.retryAfterSeconds(address: "192.0.2.8", now: 1) == nil)
        #expect(ledger.retryAfterSeconds(address: "loopback", now: 1) == nil)
    }

    @Test func failuresOlderThanTheWindowNoLongerCount() {
        var ledger = FailedAuthLedger(limits: Self.limits)
        ledger.recordFailure(address: "a", credential: 1, now: 0)
        ledger.recordFailure(address: "a", credential: 2, now: 59 * Self.second)
        // A new window starts at 60 s: one failure in it.
        #expect(ledger.recordFailure(address: "a", credential: 3, now: 60 * Self.second) == nil)
        #expect(ledger.recordFailure(address: "a", credential: 4, now: 61 * Self.second) == nil)
        #expect(ledger.recordFailure(address: "a", credential: 5, now: 62 * Self.second) == 300)
    }

    @Test func theSameWrongCredentialCountsOnceButUnknownOnesEachTime() {
        var ledger = FailedAuthLedger(limits: Self.limits)
        for _ in 0..<50 { #expect(ledger.recordFailure(address: "a", credential: 42, now: 0) == nil) }
        #expect(ledger.retryAfterSeconds(address: "a", now: 0) == nil)
        #expect(ledger.recordFailure(address: "b", credential: nil, now: 0) == nil)
        #expect(ledger.recordFailure(address: "b", credential: nil, now: 0) == nil)
        #expect(ledger.recordFailure(address: "b", credential: nil, now: 0) == 300)
    }

    @Test func memoryIsBoundedByForgettingTheStalest() {
        var ledger = FailedAuthLedger(limits: Self.limits)
        for index in 0..<10 { ledger.recordFailure(address: "192.0.2.\(index)", credential: 1, now: Int64(index) * Self.second) }
        #expect(ledger.trackedCount == 4)
        // A locked address is kept while others come and go: the stalest unlocked ones go first.
        for credential in 1...3 { ledger.recordFailure(address: "203.0.113.1", credential: credential, now: 20 * Self.second) }
        for index in 10..<20 { ledger.recordFailure(address: "192.0.2.\(index)", credential: 1, now: 30 * Self.second) }
        #expect(ledger.trackedCount == 4)
        #expect(ledger.retryAfterSeconds(address: "203.0.113.1", now: 30 * Self.second) == 290)
    }

    @Test func aFloodOfAddressesStaysBoundedAndCheap() {
        var ledger = FailedAuthLedger(limits: FailedAuthLimits(trackedAddresses: 4096))
        let clock = ContinuousClock()
        let spent = clock.measure {
            for index in 0..<20_000 {
                ledger.recordFailure(address: "10.\(index >> 16).\((index >> 8) & 255).\(index & 255)", credential: index, now: Int64(index) * 1_000)
            }
        }
        #expect(ledger.trackedCount <= 4096)
        // 20,000 new addresses: about 0.35 s in a debug build on the shared 2-core machine.
        #expect(spent < .seconds(10), "\(spent)")
    }

    @Test func addressesAreKeyedByHostOrIPv6Network() {
        #expect(FailedAuthLedger.addressKey(.unixSocket) == nil)
        #expect(FailedAuthLedger.addressKey(.loopback) == "loopback")
        #expect(FailedAuthLedger.addressKey(.remote("192.0.2.7")) == "192.0.2.7")
        #expect(FailedAuthLedger.addressKey(.remote("2001:db8:1:2:aaaa::1")) == "2001:db8:1:2::/64")
        #expect(FailedAuthLedger.addressKey(.remote("2001:db8:1:2:bbbb:cccc:dddd:eeee")) == "2001:db8:1:2::/64")
        #expect(FailedAuthLedger.addressKey(.remote("2001:db8::1")) == "2001:db8:0:0::/64")
        #expect(FailedAuthLedger.addressKey(.remote("::ffff:192.0.2.7")) == "192.0.2.7")
        #expect(FailedAuthLedger.addressKey(.remote("fe80::1%eth0")) == "fe80:0:0:0::/64")
    }

    @Test("ten wrong keys from one address get 429 with Retry-After; the socket, and a repeated stale key, never do")
    func deviceAPI() async throws {
        // socketOnly: loopback TCP must present keys, so it stands in for a remote address here.
        try await APIHarness.with(trust: .socketOnly) { api in
            // A browser's stale cookie, sent again and again, is one failure.
            for _ in 0..<15 {
                #expect(try await api.request("/api/v1/device", headers: [("Cookie", "chronoception_key=cck_stale")]).errorCode == "key_unknown")
            }
            for guess in 1..<10 {
                #expect(try await api.request("/api/v1/device", headers: [("Authorization", "Bearer cck_guess\(guess)")]).errorCode == "key_unknown")
            }
            let limited = try await api.request("/api/v1/device", headers: [("Authorization", "Bearer cck_guess10")])
            #expect(limited.status == 429)
            #expect(limited.errorCode == "too_many_failures")
            #expect(limited.headers.first(name: "retry-after") == "300")
            // Even a good key waits now (the address is refused before any check) ...
            #expect(try await api.request("/api/v1/openapi.json").status == 429)
            // ... but the device's own user on the socket is never locked out.
            #expect(try await api.request("/api/v1/device", via: .socket).status == 200)
        }
    }

    @Test("spent or unknown login links count as failures too")
    func loginLinks() async throws {
        try await APIHarness.with(trust: .socketOnly) { api in
            for guess in 1...10 {
                let refused = try await api.request("/api/v1/login?token=guess\(guess)")
                #expect(refused.status == 403)
            }
            let limited = try await api.request("/api/v1/login?token=guess11")
            #expect(limited.status == 429)
        }
    }

    @Test("trusted loopback is the owner: its failures are never counted and it is never locked out")
    func trustedLoopbackIsNeverLimited() async throws {
        try await APIHarness.with(trust: .socketAndLoopback) { api in
            for guess in 1...15 {
                let refused = try await api.request("/api/v1/login?token=guess\(guess)")
                #expect(refused.status == 403)
            }
            let device = try await api.request("/api/v1/device")
            #expect(device.status == 200)
        }
    }
}
