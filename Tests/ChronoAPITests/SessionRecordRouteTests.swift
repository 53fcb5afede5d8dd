@testable import ChronoAPI
import ChronoCore
import ChronoStore
import ChronoSync
import ChronoTesting
import Foundation
import Testing

/// A session's detail carries the session record (issue 33): the object a sync batch carries and a
/// fallback file holds, so the raw session a person fetches is the one the device keeps and sends.
@Suite("Device API: a session's record")
struct SessionRecordRouteTests {
    @Test("GET /sessions/{id} has the record the outbox sends; it imports as a fallback file's session; documented")
    func record() async throws {
        try await APIHarness.with { api in
            try SessionTimingFlagRouteTests.addPassive(api, sid("REC"), lateness: .nanoseconds(1_500_250_000))
            let detail = try await api.request("/api/v1/sessions/" + sid("REC"))
            #expect(detail.status == 200)
            let member = try #require(detail.json["record"] as? [String: Any])
            let record = try JSONDecoder().decode(SyncedSession.self, from: JSONSerialization.data(withJSONObject: member))
            #expect(record == (try api.store.session(id: sid("REC")).record))
            #expect(record.schema == SyncedSession.schemaVersion && record.timingLateNanoseconds == 1_500_250_000)
            #expect(record.boundaries.map(\.firedMonotonicNanoseconds) == [1_010_001_000_000, 1_021_500_250_000])
            #expect(try api.store.syncOutboxBatch().sessions == [record])
            // The same object, put in a fallback file's envelope, imports as the same session.
            let file = JSONValue.object([("chronoception_unsaved_session", .int(3)), ("results_withheld", .bool(false)), ("session", record.json)])
            let imported = try UnsavedSessionFile.parse(file.compactText)
            #expect(imported.outcome == (try api.store.session(id: sid("REC")).outcome))
            let document = try await api.request("/api/v1/openapi.json")
            // The document names every member the record has, and requires only members it always has.
            let schemas = ((try JSONSerialization.jsonObject(with: Data(document.text.utf8)) as? [String: Any])?["components"] as? [String: Any])?["schemas"] as? [String: Any]
            let schema = try #require(schemas?["SessionRecord"] as? [String: Any])
            let documented = Set(try #require(schema["properties"] as? [String: Any]).keys)
            #expect(Set(member.keys).isSubset(of: documented), "undocumented: \(Set(member.keys).subtracting(documented).sorted())")
            #expect(Set(try #require(schema["required"] as? [String])).isSubset(of: Set(member.keys)))
        }
    }
}
