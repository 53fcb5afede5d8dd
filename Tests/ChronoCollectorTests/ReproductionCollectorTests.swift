import ChronoCollector
import ChronoCore
import ChronoStore
import ChronoSync
import Foundation
import Testing

/// Contract item 3 in the collector: a Reproduction attempt's presented interval is stored (schema
/// version 5) and read back as sent, on both stores.
@Suite("Reproduction in the collector's stores")
struct ReproductionCollectorTests {
    typealias F = CollectorFixtures

    /// A completed Reproduction session of two 10 s attempts: presented 2 s after each attempt starts,
    /// reproduced 10.5 s and 9.4 s.
    static func reproduction(id: String = UUID().uuidString) -> SyncedSession {
        var session = F.challenge(id: id, errorsMilliseconds: [500, -600])
        session.mode = "reproduction"
        session.plannedCount = 2
        var attemptStart = session.startedMonotonicNanoseconds
        for position in session.attempts.indices {
            let presentedStart = attemptStart + 2_000_000_000
            let presentedEnd = presentedStart + 10_000_000_000
            let start = presentedEnd + 800_000_000
            let tap = start + (position == 0 ? 10_500_000_000 : 9_400_000_000)
            session.attempts[position] = SyncedSession.Attempt(
                index: position + 1, startMonotonicNanoseconds: start, tapMonotonicNanoseconds: tap,
                presentedStartMonotonicNanoseconds: presentedStart, presentedEndMonotonicNanoseconds: presentedEnd)
            attemptStart = tap + 1_500_000_000
        }
        session.endedMonotonicNanoseconds = session.attempts.last!.tapMonotonicNanoseconds
        return session
    }

    @Test(arguments: StoreKind.available)
    func aReproductionSessionIsStoredAndReadBackWithItsPresentedMarks(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await F.enrol(store)
            let session = Self.reproduction()
            let plan = try IngestPlan.validate(F.batch([session, F.challenge()]))
            let receipt = try await store.ingest(plan, deviceID: F.deviceID, nowUnixNanoseconds: F.now)
            #expect(receipt.accepted == 2)
            let stored = try await store.sessions(CollectorSessionQuery(device: F.deviceID, mode: "reproduction"))
            #expect(stored.count == 1)
            let back = try #require(stored.first?.session)
            #expect(back == session)
            #expect(back.attempts.map(\.presentedStartMonotonicNanoseconds) == session.attempts.map(\.presentedStartMonotonicNanoseconds))
            let outcome = try back.validatedOutcome()
            #expect(outcome.attempts.map(\.ratio) == [1.05, 0.94])
            #expect(outcome.attempts.map(\.presentedDuration) == [TimeSpan.seconds(10), TimeSpan.seconds(10)])
            // The challenge session's attempts come back without presented marks.
            let challenge = try await store.sessions(CollectorSessionQuery(device: F.deviceID, mode: "challenge"))
            #expect(challenge.first?.session.attempts.allSatisfy { $0.presentedStartMonotonicNanoseconds == nil } == true)
        }
    }

    @Test func theSchemaIsVersionFiveWithThePresentedColumns() {
        #expect(CollectorSchema.version >= 5)
        #expect(CollectorSchema.migrations[4].sqlite == ["ALTER TABLE attempt ADD COLUMN presented_start_mono_ns INTEGER",
                                                         "ALTER TABLE attempt ADD COLUMN presented_end_mono_ns INTEGER"])
    }
}
