@testable import ChronoAPI
import ChronoCore
import ChronoStore
import ChronoTesting
import Foundation
import Testing

/// A person's note on a session (issue 22) through the device API: PATCH sets or removes it through
/// the one validator, the detail, the list and the CSV carry it, and refusals name the fix.
@Suite("Device API: a session's note")
struct SessionNoteRouteTests {
    static func error(_ code: String, _ message: String) -> String {
        JSONValue.object([("error", .object([("code", .string(code)), ("message", .string(message))]))]).compactText
    }

    @Test("PATCH sets, changes and removes the note; the detail, the list and the CSV carry it")
    func setAndRead() async throws {
        try await APIHarness.with { api in
            try api.addChallenge(sid("NOTE"), daysAgo: 1, elapsed: [61])
            let id = sid("NOTE")
            let set = try await api.request(.PATCH, "/api/v1/sessions/" + id.lowercased(), json: #"{"note": "  after coffee "}"#)
            #expect(set.status == 200)
            #expect(set.json["session_id"] as? String == id)
            #expect(set.json["note"] as? String == "after coffee")
            // The detail's exact members, in order, with the note before the attempts.
            #expect(set.text.contains(#""health_log":"written","timing_late_ms":null,"note":"after coffee","attempts":["#))
            #expect(try await api.request("/api/v1/sessions/" + id).json["note"] as? String == "after coffee")
            let list = try #require(try await api.request("/api/v1/sessions").json["sessions"] as? [[String: Any]])
            #expect(list.first?["note"] as? String == "after coffee")
            let progress = try await api.request("/api/v1/progress")
            #expect(progress.text.contains(#""note":"after coffee""#))
            let csv = try await api.request("/api/v1/export.csv?all=true").text.components(separatedBy: "\r\n")
            #expect(csv[0].hasSuffix(",timing_late_ms,note,presented_start_mono_ns,presented_end_mono_ns,feedback_withheld,results_withheld,reason"))
            #expect(csv[1].hasPrefix(id + ",") && csv[1].hasSuffix(",,after coffee,,,,,"))

            let formula = try await api.request(.PATCH, "/api/v1/sessions/" + id, json: #"{"note": "=1+2"}"#)
            #expect(formula.status == 200 && formula.json["note"] as? String == "=1+2")
            let neutralised = try await api.request("/api/v1/export.csv?all=true").text.components(separatedBy: "\r\n")
            #expect(neutralised[1].hasSuffix(",,\"'=1+2\",,,,,"))

            let cleared = try await api.request(.PATCH, "/api/v1/sessions/" + id, json: #"{"note": null}"#)
            #expect(cleared.status == 200 && cleared.json["note"] is NSNull)
            let empty = try await api.request(.PATCH, "/api/v1/sessions/" + id, json: #"{"note": "   "}"#)
            #expect(empty.status == 200 && empty.json["note"] is NSNull)
            #expect(try api.store.session(id: id).note == nil)
        }
    }

    @Test("refusals: 422 session_note with the words, 404 for an unknown session, 400 for a body that is not a note")
    func refusals() async throws {
        try await APIHarness.with { api in
            try api.addChallenge(sid("NOTE"), daysAgo: 1, elapsed: [61])
            let id = sid("NOTE")
            _ = try await api.request(.PATCH, "/api/v1/sessions/" + id, json: #"{"note": "kept"}"#)

            let long = try await api.request(.PATCH, "/api/v1/sessions/" + id, json: "{\"note\": \"\(String(repeating: "x", count: 300))\"}")
            #expect(long.status == 422)
            #expect(long.text == Self.error("session_note", "The note is 300 characters long; a note holds at most 200. Shorten it."))
            let control = try await api.request(.PATCH, "/api/v1/sessions/" + id, json: #"{"note": "a\u001b[2Jb"}"#)
            #expect(control.status == 422)
            #expect(control.text == Self.error("session_note", "The note holds a control character (U+001B); write it on one line with ordinary characters."))
            let newline = try await api.request(.PATCH, "/api/v1/sessions/" + id, json: #"{"note": "two\nlines"}"#)
            #expect(newline.status == 422 && newline.json["error"].map { ($0 as? [String: Any])?["code"] as? String } == "session_note")

            let unknown = try await api.request(.PATCH, "/api/v1/sessions/" + sid("NONE"), json: #"{"note": "x"}"#)
            #expect(unknown.status == 404)
            #expect(unknown.text == Self.error("not_found", "No session \(sid("NONE"))."))
            let notUUID = try await api.request(.PATCH, "/api/v1/sessions/latest", json: #"{"note": "x"}"#)
            #expect(notUUID.status == 404)

            let missing = try await api.request(.PATCH, "/api/v1/sessions/" + id, json: #"{}"#)
            #expect(missing.status == 400)
            #expect(missing.text == Self.error("invalid_request", #"Send the note as {"note": "after coffee"}, or {"note": null} to remove it."#))
            let number = try await api.request(.PATCH, "/api/v1/sessions/" + id, json: #"{"note": 5}"#)
            #expect(number.text == Self.error("invalid_request", #""note" must be text, or null to remove the note."#))
            let extra = try await api.request(.PATCH, "/api/v1/sessions/" + id, json: #"{"note": "x", "board": "y"}"#)
            #expect(extra.status == 400 && extra.text.contains("Unknown field"))

            #expect(try api.store.session(id: id).note == "kept")
        }
    }

    @Test("openapi.json documents the PATCH and the note in all three session shapes")
    func documented() async throws {
        try await APIHarness.with { api in
            let document = try await api.request("/api/v1/openapi.json")
            let paths = try #require(document.json["paths"] as? [String: Any])
            let operations = try #require(paths["/sessions/{id}"] as? [String: Any])
            #expect(Set(operations.keys) == ["get", "patch"])
            let patch = try #require(operations["patch"] as? [String: Any])
            let responses = try #require(patch["responses"] as? [String: Any])
            #expect(Set(responses.keys) == ["200", "400", "401", "404", "422"])
            #expect(document.text.components(separatedBy: "A person's note on the session").count - 1 == 3)
            // A PUT is not allowed; the answer names what is.
            let put = try await api.request(.PUT, "/api/v1/sessions/" + sid("X"), json: #"{"note": "x"}"#)
            #expect(put.status == 405 && put.headers["Allow"].first == "GET, PATCH, HEAD")
        }
    }
}
