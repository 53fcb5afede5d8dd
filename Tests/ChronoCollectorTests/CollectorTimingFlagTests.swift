import ChronoCollector
import ChronoCore
import ChronoStore
import ChronoSync
import Foundation
import Testing

/// The timing flag (issue 20, bullet 7) on a collector: stored with the session as sent, NULL for
/// devices older than the flag, and in the collector's CSV export as the device's CSV has it.
@Suite("Collector keeps a session's timing flag")
struct CollectorTimingFlagTests {
    typealias F = CollectorFixtures

    @Test(arguments: StoreKind.available)
    func flagRoundTrip(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await F.enrol(store)
            var stalled = F.passive(count: 3)
            stalled.timingLateNanoseconds = 1_500_000_000
            let older = F.passive(startedAgo: 3_600_000_000_000, count: 2)
            let plan = try IngestPlan.validate(F.batch([stalled, older]))
            #expect(try await store.ingest(plan, deviceID: F.deviceID, nowUnixNanoseconds: F.now).accepted == 2)
            let stored = try await store.sessions(CollectorSessionQuery(device: F.deviceID))
            #expect(stored.first { $0.session.id == stalled.id }?.session == stalled)
            #expect(stored.first { $0.session.id == older.id }?.session.timingLateNanoseconds == nil)
            #expect(try stored.first { $0.session.id == stalled.id }?.session.validatedOutcome().timingLateness == .milliseconds(1500))
        }
    }

    @Test func schemaVersionTwoAddsTheColumn() {
        // Version 2's column follows version 1's; later versions append after it (3: the note).
        #expect(CollectorSchema.sessionColumns[30].name == "timing_late_ns")
        #expect(CollectorSchema.migrations[1].sqlite == ["ALTER TABLE session ADD COLUMN timing_late_ns INTEGER"])
    }
}
