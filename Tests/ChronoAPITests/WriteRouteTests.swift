@testable import ChronoAPI
import ChronoCore
import ChronoStore
import ChronoTesting
import Foundation
import Testing

@Suite("Write routes: settings with versions, delete-all in two steps, limits")
struct WriteRouteTests {
    @Test("a settings change with the current version is applied; a stale version is refused with 409")
    func settingsVersionConflict() async throws {
        try await APIHarness.with { api in
            let first = try await api.request("/api/v1/settings")
            let version = try #require(first.json["version"] as? String)
            #expect((first.json["values"] as? [String: Any])?["default-interval"] as? String == "5m 0s")
            let change = try await api.request(.PATCH, "/api/v1/settings", json: #"{"version": "\#(version)", "values": {"default-interval": "90", "auto-start": true}}"#)
            #expect(change.status == 200, "\(change.text)")
            #expect((change.json["values"] as? [String: Any])?["default-interval"] as? String == "1m 30s")
            #expect(try api.store.settings().session.autoStartNextAttempt)
            #expect(change.json["version"] as? String != version)
            // The same old version again: someone changed the settings since it was read.
            let stale = try await api.request(.PATCH, "/api/v1/settings", json: #"{"version": "\#(version)", "values": {"default-attempts": "3"}}"#)
            #expect(stale.status == 409)
            #expect(stale.errorCode == "version_conflict")
            #expect(try api.store.settings().session.defaultAttempts == 1)
            // A change from the command line also makes the API's version stale.
            let current = try #require(change.json["version"] as? String)
            try api.store.setSetting(.defaultAttempts, to: "4", nowUnixSeconds: 1)
            #expect(try await api.request(.PATCH, "/api/v1/settings", json: #"{"version": "\#(current)", "values": {"default-attempts": "3"}}"#).status == 409)
        }
    }

    @Test("settings values are validated by the store's own rules; nothing is written when one is wrong")
    func settingsValidation() async throws {
        try await APIHarness.with { api in
            let version = try #require(try await api.request("/api/v1/settings").json["version"] as? String)
            let fear = try await api.request(.PATCH, "/api/v1/settings", json: #"{"version": "\#(version)", "values": {"default-mode": "fear"}}"#)
            #expect(fear.status == 422)
            #expect(fear.errorCode == "invalid_value")
            let mixed = try await api.request(.PATCH, "/api/v1/settings", json: #"{"version": "\#(version)", "values": {"default-attempts": "2", "default-interval": "3s"}}"#)
            #expect(mixed.status == 422)
            #expect(try api.store.settings().session.defaultAttempts == 1)
            #expect(try await api.request(.PATCH, "/api/v1/settings", json: #"{"version": "\#(version)", "values": {"colour": "red"}}"#).status == 422)
            #expect(try await api.request(.PATCH, "/api/v1/settings", json: #"{"values": {"default-attempts": "2"}}"#).status == 400)
            #expect(try await api.request(.PATCH, "/api/v1/settings", json: #"{"version": "\#(version)", "values": {}}"#).status == 400)
            #expect(try await api.request(.PATCH, "/api/v1/settings", json: "[1, 2]").status == 400)
            // Fear opt-in first, then the default mode, in one request.
            let both = try await api.request(.PATCH, "/api/v1/settings", json: #"{"version": "\#(version)", "values": {"fear-mode": "on", "default-mode": "fear"}}"#)
            #expect(both.status == 200, "\(both.text)")
            #expect(try api.store.settings().session.defaultMode == .fear)
        }
    }

    @Test("delete-all needs a fresh confirmation token from step one; a wrong or spent token deletes nothing")
    func deleteAllTwoSteps() async throws {
        try await APIHarness.with { api in
            try api.addChallenge(sid("A"), daysAgo: 0, elapsed: [61])
            try api.store.setSetting(.defaultAttempts, to: "3", nowUnixSeconds: 1)
            let wrong = try await api.request(.POST, "/api/v1/delete-all/confirm", json: #"{"confirmation_token": "guess"}"#)
            #expect(wrong.status == 409)
            #expect(try api.store.sessionCount() == 1)
            let step1 = try await api.request(.POST, "/api/v1/delete-all")
            #expect(step1.status == 200)
            #expect(step1.json["sessions"] as? Int == 1)
            let token = try #require(step1.json["confirmation_token"] as? String)
            let step2 = try await api.request(.POST, "/api/v1/delete-all/confirm", json: #"{"confirmation_token": "\#(token)"}"#)
            #expect(step2.status == 200)
            #expect(step2.json["deleted_sessions"] as? Int == 1)
            #expect(try api.store.sessionCount() == 0)
            #expect(try api.store.settings().session.defaultAttempts == 1)
            let again = try await api.request(.POST, "/api/v1/delete-all/confirm", json: #"{"confirmation_token": "\#(token)"}"#)
            #expect(again.status == 409)
            #expect(again.errorCode == "confirmation_invalid")
        }
    }

    @Test("delete-all is refused while a session runs on the device")
    func deleteAllDuringSession() async throws {
        try await APIHarness.with { api in
            let step1 = try await api.request(.POST, "/api/v1/delete-all")
            let token = try #require(step1.json["confirmation_token"] as? String)
            api.fake.publish(DeviceState(state: .attemptRunning, board: "desktop"))
            let step2 = try await api.request(.POST, "/api/v1/delete-all/confirm", json: #"{"confirmation_token": "\#(token)"}"#)
            #expect(step2.status == 409)
            #expect(step2.errorCode == "session_running")
            #expect(try await api.request(.POST, "/api/v1/delete-all").status == 409)
        }
    }

    @Test("bodies over the limit get 413; unknown fields and non-JSON bodies get 400/415")
    func bodyLimits() async throws {
        try await APIHarness.with { api in
            let big = #"{"name": ""# + String(repeating: "x", count: APIServer.maximumBodyBytes + 10) + #""}"#
            #expect(try await api.request(.POST, "/api/v1/keys", json: big).status == 413)
            #expect(try await api.request(.POST, "/api/v1/device/start", json: #"{"presett": "30s"}"#).status == 400)
            let plain = try await api.request(.POST, "/api/v1/device/start", json: "start please", headers: [("Content-Type", "text/plain")])
            #expect(plain.status == 415)
            #expect(try await api.request(.POST, "/api/v1/device/start", json: "{not json").status == 400)
            #expect(api.fake.actions.isEmpty)
        }
    }
}
