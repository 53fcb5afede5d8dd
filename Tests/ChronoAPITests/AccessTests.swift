@testable import ChronoAPI
import ChronoCore
import ChronoStore
import ChronoTesting
import Foundation
import Testing

@Suite("Access: keys, pairing on the device's button, login links, Origin and Host checks")
struct AccessTests {
    @Test("beyond the trusted listeners a key is required: Bearer or cookie; a revoked key stops working")
    func keysRequired() async throws {
        try await APIHarness.with(trust: .socketOnly) { api in
            let refused = try await api.request("/api/v1/device")
            #expect(refused.status == 401)
            #expect(refused.errorCode == "key_required")
            #expect(refused.headers.first(name: "www-authenticate")?.hasPrefix("Bearer") == true)
            // The socket is the local user.
            #expect(try await api.request("/api/v1/device", via: .socket).status == 200)
            // A key made by the local user (as `companion keys add` does through the store).
            let made = try await api.request(.POST, "/api/v1/keys", json: #"{"name": "Test laptop"}"#, via: .socket)
            #expect(made.status == 201)
            let key = try #require(made.json["key"] as? String)
            let id = try #require(made.json["id"] as? String)
            #expect(try await api.request("/api/v1/device", headers: [("Authorization", "Bearer \(key)")]).status == 200)
            #expect(try await api.request("/api/v1/device", headers: [("Cookie", "chronoception_key=\(key)")]).status == 200)
            #expect(try await api.request("/api/v1/device", headers: [("Authorization", "Bearer cck_wrong")]).errorCode == "key_unknown")
            // The store keeps only the digest.
            #expect(try api.store.apiKey(secretSHA256: SHA256.hex(key))?.name == "Test laptop")
            // Keyed clients may list and revoke, but not make keys.
            let list = try await api.request("/api/v1/keys", headers: [("Authorization", "Bearer \(key)")])
            let keys = try #require(list.json["keys"] as? [[String: Any]])
            #expect(keys.count == 1)
            #expect(keys[0]["current"] as? Bool == true)
            #expect(keys[0]["key"] == nil)
            let remoteMake = try await api.request(.POST, "/api/v1/keys", json: #"{"name": "x"}"#, headers: [("Authorization", "Bearer \(key)")])
            #expect(remoteMake.status == 403)
            #expect(remoteMake.errorCode == "local_only")
            #expect(try await api.request(.DELETE, "/api/v1/keys/\(id)", via: .socket).status == 204)
            #expect(try await api.request(.DELETE, "/api/v1/keys/\(id)", via: .socket).status == 404)
            #expect(try await api.request("/api/v1/device", headers: [("Authorization", "Bearer \(key)")]).status == 401)
            // The OpenAPI document and pairing stay reachable without a key.
            #expect(try await api.request("/api/v1/openapi.json").status == 200)
        }
    }

    @Test("pairing approved on the device gives a working key; while it waits the device's status names the requester and its address")
    func pairingApproved() async throws {
        try await APIHarness.with(trust: .socketOnly) { api in
            async let reply = api.request(.POST, "/api/v1/pairing", json: #"{"name": "Anna's phone"}"#)
            try await api.waitForPairingRequest()
            #expect(api.fake.pairingRequesters == [PairingRequester(name: "Anna's phone", address: "loopback")])
            let device = try await api.request("/api/v1/device", via: .socket)
            let shown = try #require((device.json["device"] as? [String: Any])?["pairing_request"] as? [String: Any])
            #expect(shown["name"] as? String == "Anna's phone")
            #expect(shown["address"] as? String == "loopback")
            #expect(api.fake.approveOnDevice())
            let paired = try await reply
            #expect(paired.status == 201, "\(paired.text)")
            #expect(paired.json["kind"] as? String == "paired")
            let key = try #require(paired.json["key"] as? String)
            #expect(api.fake.pairingRequests == ["Anna's phone"])
            #expect(try await api.request("/api/v1/sessions", headers: [("Authorization", "Bearer \(key)")]).status == 200)
        }
    }

    @Test("pairing with nobody at the button is refused when the window passes, and no key is made")
    func pairingRefusedBySilence() async throws {
        try await APIHarness.with(trust: .socketOnly, configure: { $0.pairingWindow = .milliseconds(50) }) { api in
            let reply = try await api.request(.POST, "/api/v1/pairing", json: #"{"name": "Stranger"}"#)
            #expect(reply.status == 403)
            #expect(reply.errorCode == "pairing_not_approved")
            #expect(try api.store.apiKeys().isEmpty)
        }
    }

    @Test("a browser pairing gets its key only as an HttpOnly, SameSite=Strict cookie")
    func pairingCookie() async throws {
        try await APIHarness.with(trust: .socketOnly) { api in
            async let reply = api.request(.POST, "/api/v1/pairing", json: #"{"name": "Browser", "deliver": "cookie"}"#)
            try await api.waitForPairingRequest()
            api.fake.approveOnDevice()
            let paired = try await reply
            #expect(paired.status == 201)
            #expect(paired.json["key"] is NSNull)
            let cookie = try #require(paired.headers.first(name: "set-cookie"))
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Strict"))
            let value = try #require(cookie.split(separator: ";").first.map(String.init))
            #expect(try await api.request("/api/v1/learn", headers: [("Cookie", value)]).status == 200)
        }
    }

    @Test("pairing requests are rate-limited, and bad names are refused before the device is asked")
    func pairingLimits() async throws {
        try await APIHarness.with(trust: .socketOnly, configure: { $0.pairingWindow = .milliseconds(1); $0.pairingRequestsPerMinute = 2 }) { api in
            #expect(try await api.request(.POST, "/api/v1/pairing", json: #"{"name": ""}"#).errorCode == "invalid_name")
            #expect(try await api.request(.POST, "/api/v1/pairing", json: #"{"name": "a"}"#).status == 403)
            #expect(try await api.request(.POST, "/api/v1/pairing", json: #"{"name": "b"}"#).status == 403)
            let limited = try await api.request(.POST, "/api/v1/pairing", json: #"{"name": "c"}"#)
            #expect(limited.status == 429)
            #expect(Int(limited.headers.first(name: "retry-after") ?? "") ?? 0 >= 1)
            #expect(api.fake.pairingRequests == ["a", "b"])
        }
    }

    @Test("a one-time login link is exchanged for a cookie once, and redirects away from the token")
    func loginLink() async throws {
        try await APIHarness.with(trust: .socketOnly) { api in
            let path = api.server.makeLoginPath()
            let first = try await api.request(path)
            #expect(first.status == 303)
            #expect(first.headers.first(name: "location") == "/")
            let cookie = try #require(first.headers.first(name: "set-cookie")?.split(separator: ";").first.map(String.init))
            #expect(try await api.request("/api/v1/device", headers: [("Cookie", cookie)]).status == 200)
            #expect(try await api.request(path).status == 403)
            #expect(try api.store.apiKeys().map(\.kind) == [.login])
            // The local user can ask for another link.
            let link = try await api.request(.POST, "/api/v1/login-links", via: .socket)
            #expect(link.status == 201)
            #expect((link.json["path"] as? String)?.hasPrefix("/api/v1/login?token=") == true)
        }
    }

    @Test("state-changing requests from another origin are refused; the same origin passes")
    func originCheck() async throws {
        try await APIHarness.with { api in
            let foreign = try await api.request(.POST, "/api/v1/device/start", headers: [("Origin", "http://evil.example")])
            #expect(foreign.status == 403)
            #expect(foreign.errorCode == "origin_refused")
            #expect(api.fake.actions.isEmpty)
            #expect(try await api.request(.POST, "/api/v1/device/start", headers: [("Origin", "http://127.0.0.1:\(api.port)")]).status == 202)
            // Reads are not blocked by Origin (browsers do not let other sites read the answer).
            #expect(try await api.request("/api/v1/device", headers: [("Origin", "http://evil.example")]).status == 200)
        }
    }

    @Test("loopback with a foreign Host name (DNS rebinding) is not the local user")
    func hostCheck() async throws {
        try await APIHarness.with { api in
            #expect(try await api.request("/api/v1/device", headers: [("Host", "localhost:\(api.port)")]).status == 200)
            let rebound = try await api.request("/api/v1/device", headers: [("Host", "rebind.example:\(api.port)")])
            #expect(rebound.status == 401)
        }
    }
}
