@testable import ChronoAPI
import ChronoCore
import ChronoStore
import ChronoTesting
import Foundation
import Testing

@Suite("Read routes: status, sessions, progress, health, export, Learn, OpenAPI")
struct ReadRouteTests {
    @Test("device status is served on both listeners, with the last completed session")
    func deviceStatusOnBothListeners() async throws {
        try await APIHarness.with { api in
            try api.addChallenge(sid("S1"), daysAgo: 2, elapsed: [61])
            try api.addChallenge(sid("S2"), interval: 30, daysAgo: 1, elapsed: [29, 31])
            try api.addChallenge(sid("S3"), daysAgo: 0, elapsed: [50], status: .aborted)
            for listener in [APIHarness.Listener.tcp, .socket] {
                let reply = try await api.request("/api/v1/device", via: listener)
                #expect(reply.status == 200)
                let device = try #require(reply.json["device"] as? [String: Any])
                #expect(device["state"] as? String == "Idle")
                #expect(device["board"] as? String == "desktop")
                #expect(device["session_in_progress"] as? Bool == false)
                let last = try #require(reply.json["last_session"] as? [String: Any])
                #expect(last["session_id"] as? String == sid("S2"))
                #expect(last["interval"] as? String == "30s")
                #expect(last["time_acuity_score"] as? Int != nil)
            }
        }
    }

    @Test("device setup: the device's parts as it opened them; without a device, none and a note saying so")
    func deviceSetup() async throws {
        let setup = DeviceSetup(board: "raspberry-pi-4b", parts: [
            DeviceSetup.Part(name: "button", status: .ok, detail: "gpiochip0 line 17 (GPIO17), active-low"),
            DeviceSetup.Part(name: "sound", status: .warning, detail: "the mixer is muted", fix: "Sound is disabled."),
        ], note: "As opened.")
        try await APIHarness.with(device: FakeDevice(setup: setup)) { api in
            let reply = try await api.request("/api/v1/device")
            let json = try #require(reply.json["setup"] as? [String: Any])
            #expect(json["board"] as? String == "raspberry-pi-4b")
            let parts = try #require(json["parts"] as? [[String: Any]])
            #expect(parts.compactMap { $0["name"] as? String } == ["button", "sound"])
            #expect(parts.compactMap { $0["status"] as? String } == ["ok", "warning"])
            #expect(parts[0]["fix"] is NSNull)
            #expect(parts[1]["fix"] as? String == "Sound is disabled.")
        }
        try await APIHarness.with(device: NoDevice()) { api in
            let json = try #require(try await api.request("/api/v1/device").json["setup"] as? [String: Any])
            #expect(json["board"] is NSNull)
            #expect((json["parts"] as? [Any])?.isEmpty == true)
            #expect((json["note"] as? String)?.contains("No device is attached") == true)
            #expect((json["note"] as? String)?.contains("board check") == true)
        }
    }

    @Test("the session list filters by mode, interval, status and dates, and pages with a cursor")
    func sessionList() async throws {
        try await APIHarness.with { api in
            for day in 0..<5 { try api.addChallenge(sid("C\(day)"), daysAgo: day, elapsed: [60 + Double(day)]) }
            try api.addChallenge(sid("F1"), interval: 30, daysAgo: 1, elapsed: [33], mode: .challenge, status: .aborted)
            func ids(_ query: String) async throws -> [String] {
                let reply = try await api.request("/api/v1/sessions" + query)
                #expect(reply.status == 200, "\(query): \(reply.text)")
                return (reply.json["sessions"] as? [[String: Any]] ?? []).compactMap { $0["session_id"] as? String }
            }
            #expect(try await ids("") == ["C0", "F1", "C1", "C2", "C3", "C4"].map(sid))
            #expect(try await ids("?interval=30s") == ["F1"].map(sid))
            #expect(try await ids("?status=completed&interval=1m") == ["C0", "C1", "C2", "C3", "C4"].map(sid))
            #expect(try await ids("?mode=passive") == [])
            let day2 = DailySeries.dayText(WallTime(unixNanoseconds: APIHarness.now - 2 * 86_400_000_000_000 - 3_600_000_000_000, utcOffsetSeconds: 0).localDayNumber)
            let day1 = DailySeries.dayText(WallTime(unixNanoseconds: APIHarness.now - 86_400_000_000_000 - 3_600_000_000_000, utcOffsetSeconds: 0).localDayNumber)
            #expect(try await ids("?from=\(day2)&to=\(day1)") == ["F1", "C1", "C2"].map(sid))
            // Paging: two at a time, following next_cursor to the end.
            var seen: [String] = []
            var cursor: String? = nil
            repeat {
                let query = "?limit=2" + (cursor.map { "&cursor=" + $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! } ?? "")
                let reply = try await api.request("/api/v1/sessions" + query)
                seen += (reply.json["sessions"] as? [[String: Any]] ?? []).compactMap { $0["session_id"] as? String }
                cursor = reply.json["next_cursor"] as? String
            } while cursor != nil
            #expect(seen == ["C0", "F1", "C1", "C2", "C3", "C4"].map(sid))
            for bad in ["?interval=5s", "?mode=sleep", "?status=done", "?from=2026-02-30", "?limit=0", "?limit=501", "?cursor=xyz",
                        "?from=2026-11-20&to=2026-11-19"] {
                let reply = try await api.request("/api/v1/sessions" + bad)
                #expect(reply.status == 400, "\(bad)")
                #expect(reply.errorCode == "invalid_request")
            }
        }
    }

    @Test("one session comes with its attempts; an unknown id is 404")
    func sessionDetail() async throws {
        try await APIHarness.with { api in
            try api.addChallenge(sid("S1"), daysAgo: 1, elapsed: [63, 57])
            let reply = try await api.request("/api/v1/sessions/" + sid("S1"))
            #expect(reply.status == 200)
            #expect(reply.json["status"] as? String == "completed")
            let attempts = try #require(reply.json["attempts"] as? [[String: Any]])
            #expect(attempts.count == 2)
            #expect(abs((attempts[0]["error_seconds"] as? Double ?? 0) - 3) < 1e-6)
            #expect(abs((attempts[1]["percent_error"] as? Double ?? 0) + 5) < 1e-6)
            let missing = try await api.request("/api/v1/sessions/NOPE")
            #expect(missing.status == 404)
            #expect(missing.errorCode == "not_found")
        }
    }

    @Test("progress is the store's own report, byte for byte; daily series keep gaps as null")
    func progress() async throws {
        try await APIHarness.with { api in
            try api.addChallenge(sid("A"), daysAgo: 0, elapsed: [61])
            try api.addChallenge(sid("B"), daysAgo: 3, elapsed: [66])
            let reply = try await api.request("/api/v1/progress")
            let now = APIHarness.now
            let expected = try api.store.progress(nowUnixNanoseconds: now, utcOffsetSeconds: LocalTimeZone.utcOffsetSeconds(atUnixSeconds: now / 1_000_000_000)).json
            #expect(reply.text == expected.compactText)
            let daily = try await api.request("/api/v1/progress/daily?days=90&interval=1m")
            #expect(daily.status == 200)
            let acuity = try #require(daily.json["time_acuity"] as? [[String: Any]])
            #expect(acuity.count == 90)
            let filled = acuity.filter { !($0["value"] is NSNull) }
            #expect(filled.count == 2)
            #expect(acuity.last?["value"] is NSNull == false)
            #expect(acuity[acuity.count - 2]["value"] is NSNull)
            #expect(try await api.request("/api/v1/progress/daily?days=0").status == 400)
            #expect(try await api.request("/api/v1/progress?interval=banana").status == 400)
        }
    }

    @Test("health status and backfill, CSV export, Learn and the OpenAPI document")
    func healthExportLearnOpenAPI() async throws {
        try await APIHarness.with { api in
            try api.addChallenge(sid("A"), daysAgo: 0, elapsed: [61])
            let health = try await api.request("/api/v1/health")
            #expect(health.status == 200)
            #expect(health.json["status"] as? String == "on")
            #expect((health.json["written"] as? Int ?? 0) + (health.json["owed_total"] as? Int ?? 0) == 1)
            let backfill = try await api.request(.POST, "/api/v1/health/backfill")
            #expect(backfill.status == 200)
            #expect(backfill.json["failure"] is NSNull)
            let csv = try await api.request("/api/v1/export.csv?all=true")
            #expect(csv.status == 200)
            #expect(csv.headers.first(name: "content-type")?.hasPrefix("text/csv") == true)
            #expect(csv.text.hasPrefix(ChronoStore.csvColumns.joined(separator: ",") + "\r\n"))
            #expect(csv.text.contains(sid("A") + ","))
            let learn = try await api.request("/api/v1/learn")
            let sections = try #require(learn.json["sections"] as? [[String: Any]])
            #expect(sections.map { $0["title"] as? String ?? "" } == LearnText.sections.map(\.title))
            let openAPI = try await api.request("/api/v1/openapi.json")
            #expect(openAPI.status == 200)
            let paths = try #require(openAPI.json["paths"] as? [String: Any])
            for path in ["/device", "/device/start", "/device/end", "/device/discard", "/events", "/sessions", "/sessions/{id}",
                         "/progress", "/progress/daily", "/settings", "/health", "/health/backfill", "/export.csv", "/delete-all",
                         "/delete-all/confirm", "/learn", "/keys", "/keys/{id}", "/login-links", "/pairing", "/login", "/openapi.json"] {
                #expect(paths[path] != nil, "openapi.json documents \(path)")
            }
        }
    }
}
