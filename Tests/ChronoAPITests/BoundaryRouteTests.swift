import AsyncHTTPClient
import ChronoAPI
@testable import ChronoStore
import Foundation
import Testing

/// Input from outside the process is refused with a 4xx and never traps the server, and settings
/// about the device itself stay with its local user (issue: trust boundaries).
@Suite("Boundaries: bounded days, local-only settings")
struct BoundaryRouteTests {
    @Test("days far outside 1970…2099 are a 400 and the server keeps answering",
          arguments: ["2262-04-13", "2262-04-11", "9999-12-31", "2100-01-01", "1969-12-31", "0000-01-01", "2026-13-01", "2026-02-30",
                      "２026-11-23", "99999-01-01"])
    func days(text: String) async throws {
        try await APIHarness.with { api in
            for name in ["from", "to"] {
                let reply = try await api.request("/api/v1/sessions?\(name)=\(text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
                #expect(reply.status == 400, "\(name)=\(text)")
            }
            #expect(try await api.request("/api/v1/sessions?from=2099-12-31&to=2099-12-31").status == 200)
            #expect(try await api.request("/api/v1/sessions?from=1970-01-01").status == 200)
        }
    }

    @Test("a paired key cannot change health-log-file or wall-clock-check; the local user can, but never to the store's own files")
    func localOnlySettings() async throws {
        try await APIHarness.with(trust: .socketOnly) { api in
            let made = try await api.request(.POST, "/api/v1/keys", json: #"{"name": "Phone"}"#, via: .socket)
            let key = try #require(made.json["key"] as? String)
            let version = try #require(try await api.request("/api/v1/settings", via: .socket).json["version"] as? String)
            for (name, value) in [("health-log-file", "\"/tmp/elsewhere.jsonl\""), ("wall-clock-check", "\"off\"")] {
                let remote = try await api.request(.PATCH, "/api/v1/settings", json: #"{"version": "\#(version)", "values": {"\#(name)": \#(value)}}"#,
                                                   headers: [("Authorization", "Bearer \(key)")])
                #expect(remote.status == 403, "\(name)")
                #expect(remote.errorCode == "local_only")
            }
            // A synced setting through the same key is fine.
            let allowed = try await api.request(.PATCH, "/api/v1/settings", json: #"{"version": "\#(version)", "values": {"default-attempts": "2"}}"#,
                                                headers: [("Authorization", "Bearer \(key)")])
            #expect(allowed.status == 200)
            let current = try #require(try await api.request("/api/v1/settings", via: .socket).json["version"] as? String)
            let database = api.store.location.databasePath
            let intoStore = try await api.request(.PATCH, "/api/v1/settings", json: #"{"version": "\#(current)", "values": {"health-log-file": "\#(database)"}}"#,
                                                  via: .socket)
            #expect(intoStore.status == 422)
            #expect(try api.store.settings().healthLogPath != database)
        }
    }
}
