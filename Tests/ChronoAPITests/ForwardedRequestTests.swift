@testable import ChronoAPI
import Testing

@Suite("A request a proxy passed on is never the local user")
struct ForwardedRequestTests {
    @Test("loopback with a loopback Host but a forwarding field needs a key, whichever field it is", arguments: [
        ("Forwarded", "for=203.0.113.7"), ("X-Forwarded-For", "203.0.113.7"), ("X-Real-IP", "203.0.113.7"),
        ("X-Forwarded-Host", "device.example"), ("x-forwarded-for", ""),
    ])
    func forwardedIsRemote(field: String, value: String) async throws {
        try await APIHarness.with { api in
            #expect(try await api.request("/api/v1/device", headers: [("Host", "127.0.0.1:\(api.port)")]).status == 200)
            let forwarded = try await api.request("/api/v1/device", headers: [("Host", "127.0.0.1:\(api.port)"), (field, value)])
            #expect(forwarded.status == 401)
            #expect(forwarded.errorCode == "key_required")
            // The Unix socket too: a proxy may pass requests on to it.
            #expect(try await api.request("/api/v1/device", headers: [(field, value)], via: .socket).status == 401)
        }
    }

    @Test("a forwarded request with a key is let in as that key, not as the local user")
    func forwardedWithKey() async throws {
        try await APIHarness.with { api in
            let made = try await api.request(.POST, "/api/v1/keys", json: #"{"name": "proxy client"}"#, via: .socket)
            let key = try #require(made.json["key"] as? String)
            let keyed = try await api.request("/api/v1/device", headers: [("X-Forwarded-For", "203.0.113.7"), ("Authorization", "Bearer \(key)")])
            #expect(keyed.status == 200)
            // Making keys is the local user's alone: the proxy's client may not.
            let make = try await api.request(.POST, "/api/v1/keys", json: #"{"name": "x"}"#,
                                             headers: [("X-Forwarded-For", "203.0.113.7"), ("Authorization", "Bearer \(key)")])
            #expect(make.status == 403)
        }
    }
}
