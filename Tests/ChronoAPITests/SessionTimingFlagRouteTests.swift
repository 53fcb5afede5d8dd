@testable import ChronoAPI
import ChronoCore
import ChronoStore
import ChronoTesting
import Foundation
import Testing

/// The timing flag (issue 20, bullet 7) in the device API: in a session's detail and in the list,
/// null when every mark began on time, and named in the OpenAPI document.
@Suite("Device API: a session's timing flag")
struct SessionTimingFlagRouteTests {
    @Test("timing_late_ms in the detail and the list; null for an on-time session; documented")
    func flag() async throws {
        try await APIHarness.with { api in
            try Self.addPassive(api, sid("LATE"), lateness: .nanoseconds(1_500_250_000))
            try Self.addPassive(api, sid("ONTIME"), lateness: nil)
            let detail = try await api.request("/api/v1/sessions/" + sid("LATE"))
            #expect(detail.status == 200)
            #expect(detail.json["timing_late_ms"] as? Double == 1500.25)
            let boundaries = try #require(detail.json["boundaries"] as? [[String: Any]])
            #expect(boundaries.count == 2 && boundaries.allSatisfy { $0["fired_at"] is String })
            let onTime = try await api.request("/api/v1/sessions/" + sid("ONTIME"))
            #expect(onTime.json["timing_late_ms"] is NSNull)
            let list = try await api.request("/api/v1/sessions")
            let sessions = try #require(list.json["sessions"] as? [[String: Any]])
            #expect(sessions.first { $0["session_id"] as? String == sid("LATE") }?["timing_late_ms"] as? Double == 1500.25)
            #expect(sessions.first { $0["session_id"] as? String == sid("ONTIME") }?["timing_late_ms"] is NSNull)
            let document = try await api.request("/api/v1/openapi.json")
            #expect(document.text.components(separatedBy: "\"timing_late_ms\"").count - 1 == 6)
        }
    }

    static func addPassive(_ api: APIHarness, _ id: String, lateness: TimeSpan?) throws {
        let configuration = try SessionConfiguration(mode: .passive, interval: TrainingInterval(seconds: 10), plannedCount: 2)
        let start = MonotonicInstant(nanoseconds: 1_000_000_000_000)
        let boundaries = [PassiveBoundary(index: 1, due: start + .seconds(10)), PassiveBoundary(index: 2, due: start + .seconds(20))]
        let outcome = SessionOutcome(status: .completed, configuration: configuration, startedAt: start, endedAt: start + .seconds(20),
                                     attempts: [], boundaries: boundaries, fearSoundEffective: false, reason: nil, timingLateness: lateness)
        let anchor = WallClockAnchor(unixNanoseconds: APIHarness.now - 3_600_000_000_000, monotonic: start, utcOffsetSeconds: 0)
        let fired = [boundaries[0].due + .milliseconds(1), boundaries[1].due + (lateness ?? .milliseconds(1))]
        _ = try api.store.recordSessionFinished(SessionFinishRecord(sessionID: id, outcome: outcome, anchor: anchor, board: "desktop",
                                                                    boundariesFired: fired, wallClockSynchronised: true),
                                                nowUnixNanoseconds: APIHarness.now)
    }
}
