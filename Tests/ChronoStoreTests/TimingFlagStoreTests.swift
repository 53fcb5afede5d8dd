import ChronoCore
import Foundation
@testable import ChronoStore
import Testing

/// The timing flag (issue 20, bullet 7) as the store keeps and shows it.
@Suite("Timing flag in the store: saved, read back, listed, exported")
struct TimingFlagStoreTests {
    static let onTime = "0E4B5C3A-1111-4A2B-8C3D-000000000001"
    static let stalled = "0E4B5C3A-1111-4A2B-8C3D-000000000002"

    @Test("A stalled session keeps its flag and real firings; an on-time one has none; sessions and the CSV say so")
    func roundTrip() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try store.recordSessionFinished(Sample.finish(Self.onTime, Sample.passive(planned: 3, done: 3)), nowUnixNanoseconds: Sample.now)
        var outcome = Sample.passive(planned: 3, done: 3)
        outcome.timingLateness = .nanoseconds(1_500_123_456)
        let fired = [outcome.boundaries[0].due + .milliseconds(1), outcome.boundaries[1].due + .nanoseconds(1_500_123_456),
                     outcome.boundaries[2].due + .milliseconds(2)]
        var finish = Sample.finish(Self.stalled, outcome)
        finish.boundariesFired = fired
        try store.recordSessionFinished(finish, nowUnixNanoseconds: Sample.now)

        let stored = try store.session(id: Self.stalled)
        #expect(stored.outcome.timingLateness == .nanoseconds(1_500_123_456))
        #expect(stored.boundariesFired == fired.map { Optional($0) })
        #expect(try store.session(id: Self.onTime).outcome.timingLateness == nil)

        // Newest first; both start at the same instant, so the larger id (the stalled one) first.
        let lines = try store.recentSessions(limit: 10)
        #expect(lines.map(\.timingLateness) == [.nanoseconds(1_500_123_456), nil])
        let page = try store.sessionPage(SessionQuery(limit: 10))
        #expect(Set(page.sessions.map(\.timingLateness)) == [nil, .nanoseconds(1_500_123_456)])
        let json = lines.map { $0.json.compactText }
        #expect(json[0].hasSuffix("\"timing_late_ms\":1500.123456}"))
        #expect(json[1].hasSuffix("\"timing_late_ms\":null}"))
        #expect(ProgressText.sessionTable(lines)[1].contains("3/3 repetitions, a mark 1501 ms late"))
        #expect(!ProgressText.sessionTable(lines)[2].contains("late"))

        var csv = ""
        try store.exportCSV(days: nil, nowUnixNanoseconds: Sample.now) { csv += $0 }
        let rows = csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }.map { $0.components(separatedBy: ",") }
        // The timing flag, then the person's note (issue 22), keep their places; the columns added since
        // (the presented marks, the withheld flags, the reason) come after them, on every row.
        let flag = try #require(rows[0].firstIndex(of: "timing_late_ms"))
        #expect(rows[0][flag + 1] == "note" && rows[0].suffix(5) == ["presented_start_mono_ns", "presented_end_mono_ns",
                                                                     "feedback_withheld", "results_withheld", "reason"])
        #expect(rows.dropFirst().allSatisfy { $0.count == rows[0].count })
        #expect(rows.filter { $0[0] == Self.stalled }.map { $0[flag] } == ["1500.123456", "1500.123456", "1500.123456"])
        #expect(rows.filter { $0[0] == Self.onTime }.map { $0[flag] } == ["", "", ""])
    }

    @Test("The column arrives by migration on a database made before it, empty for the sessions already there")
    func migration() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        #expect(try store.appliedMigrations().contains(SessionTimingSchema.migrationIdentifier))
        try store.recordSessionFinished(Sample.finish(Self.onTime, Sample.passive(planned: 1, done: 1)), nowUnixNanoseconds: Sample.now)
        #expect(try store.session(id: Self.onTime).outcome.timingLateness == nil)
    }
}
