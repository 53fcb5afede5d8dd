import ChronoTesting
import ChronoCore
@testable import ChronoStore
import GRDB
import Testing

/// The totals `progress` reads (`ProgressTallySchema`) against a count of the rows themselves, after
/// every kind of write the store makes: a start, a finish, an import, crash recovery and its reopening,
/// another connection's write, and delete-all.
@Suite("Progress totals kept by triggers")
struct ProgressTallyTests {
    /// A finished session of `mode` at `seconds`, `status`, started `day` days after the sample anchor.
    static func finish(_ id: String, _ mode: SessionMode, seconds: Int, status: SessionStatus = .completed, day: Int64 = 0) throws -> SessionFinishRecord {
        let interval = try TrainingInterval(seconds: seconds)
        let configuration = try SessionConfiguration(mode: mode, interval: interval, plannedCount: 2)
        let start = Sample.seconds(0)
        var attempts: [AttemptMeasurement] = []
        var boundaries: [PassiveBoundary] = []
        if mode == .passive {
            boundaries = (1...2).map { PassiveBoundary(index: $0, due: start + .seconds(Int64($0 * seconds))) }
        } else {
            attempts = (1...2).map { index in
                let begin = start + .seconds(Int64((index - 1) * (seconds + 20)))
                return AttemptMeasurement(index: index, target: interval, startMark: begin, tapMark: begin + .seconds(Int64(seconds + index)))
            }
        }
        let end = (attempts.last?.tapMark ?? boundaries.last?.due ?? start) + .seconds(1)
        let outcome = SessionOutcome(status: status, configuration: configuration, startedAt: start, endedAt: end, attempts: attempts,
                                     boundaries: boundaries, fearSoundEffective: mode == .fear, reason: status == .completed ? nil : "test")
        let anchor = WallClockAnchor(unixNanoseconds: Sample.anchor.unixNanoseconds + day * 86_400_000_000_000,
                                     monotonic: Sample.anchor.monotonic, utcOffsetSeconds: 3600)
        return SessionFinishRecord(sessionID: id, outcome: outcome, anchor: anchor, board: "pi4b",
                                   boundariesFired: boundaries.map { $0.due + .milliseconds(2) }, wallClockSynchronised: true)
    }

    struct Counts: Equatable {
        var sessions: [String]
        var presetUses: [String]
    }

    /// The kept totals, and the same totals counted over every row: they must always be equal.
    static func counts(_ store: ChronoStore) throws -> (kept: Counts, counted: Counts) {
        try store.read { db in
            func lines(_ sql: String) throws -> [String] { try String.fetchAll(db, sql: sql) }
            let kept = Counts(
                sessions: try lines("SELECT target_interval_ms || ' ' || status || ' ' || mode || ' ' || sessions FROM session_tally ORDER BY target_interval_ms, status, mode"),
                presetUses: try lines("SELECT target_interval_ms || ' ' || uses || ' ' || last_used_unix_seconds FROM preset_use_tally ORDER BY target_interval_ms"))
            let counted = Counts(
                sessions: try lines("SELECT target_interval_ms || ' ' || status || ' ' || mode || ' ' || COUNT(*) FROM session GROUP BY target_interval_ms, status, mode ORDER BY target_interval_ms, status, mode"),
                presetUses: try lines("SELECT target_interval_ms || ' ' || COUNT(*) || ' ' || MAX(used_unix_seconds) FROM preset_use GROUP BY target_interval_ms ORDER BY target_interval_ms"))
            return (kept, counted)
        }
    }

    /// The report's counts, checked against counts made over every session row.
    static func expectReportMatchesRows(_ store: ChronoStore, only: TrainingInterval? = nil) throws {
        let now = Sample.anchor.unixNanoseconds + 30 * 86_400_000_000_000
        let report = try store.progress(nowUnixNanoseconds: now, utcOffsetSeconds: 3600, only: only)
        let filter = only.map { " WHERE target_interval_ms = \($0.span.milliseconds)" } ?? ""
        let (byModeAndStatus, completedByInterval, uses) = try store.read { db in
            var byModeAndStatus: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT status, mode, COUNT(*) FROM session\(filter) GROUP BY status, mode") {
                byModeAndStatus["\(row[0] as String) \(row[1] as String)"] = row[2]
            }
            var completedByInterval: [Int64: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT target_interval_ms, COUNT(*) FROM session WHERE status = 'completed' GROUP BY 1") {
                completedByInterval[row[0]] = row[1]
            }
            var uses: [Int64: (Int, Int64)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT target_interval_ms, COUNT(*), MAX(used_unix_seconds) FROM preset_use GROUP BY 1") {
                uses[row[0]] = (row[1], row[2])
            }
            return (byModeAndStatus, completedByInterval, uses)
        }
        for mode in SessionMode.allCases {
            #expect(report.completedByMode[mode, default: 0] == byModeAndStatus["completed \(mode.rawValue)", default: 0], "\(mode)")
        }
        #expect(report.abortedSessions == SessionMode.allCases.reduce(0) { $0 + byModeAndStatus["aborted \($1.rawValue)", default: 0] })
        #expect(report.interruptedSessions == SessionMode.allCases.reduce(0) { $0 + byModeAndStatus["interrupted \($1.rawValue)", default: 0] })
        for interval in report.intervals {
            #expect(interval.completedSessions == completedByInterval[interval.interval.span.milliseconds], "\(interval.interval)")
        }
        #expect(report.intervals.count == min(only == nil ? ChronoStore.progressIntervalCount : 1,
                                              only.map { completedByInterval[$0.span.milliseconds] == nil ? 0 : 1 } ?? completedByInterval.count))
        let ranked = try store.rankedPresets(nowUnixSeconds: now / 1_000_000_000)
        for preset in ranked where preset.useCount > 0 {
            let counted = try #require(uses[preset.interval.span.milliseconds])
            #expect(preset.useCount == counted.0 && preset.lastUsedUnixSeconds == counted.1, "\(preset.interval)")
        }
        #expect(ranked.filter { $0.useCount > 0 }.count == uses.count)
    }

    static func expectConsistent(_ store: ChronoStore, _ step: String) throws {
        let (kept, counted) = try counts(store)
        #expect(kept == counted, "after \(step)")
        try expectReportMatchesRows(store)
        try expectReportMatchesRows(store, only: TrainingInterval(seconds: 60))
    }

    @Test("starts, finishes, imports, recovery, reopening and delete-all keep the totals equal to a count of the rows")
    func everyWrite() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try Self.expectConsistent(store, "opening an empty store")

        let first = try Self.finish(sid("S1"), .challenge, seconds: 60)
        try store.recordSessionStarted(SessionStartRecord(sessionID: sid("S1"), configuration: first.outcome.configuration, anchor: first.anchor,
                                                          board: "pi4b", soundAudible: true, wallClockSynchronised: true))
        try Self.expectConsistent(store, "a start (a running row)")
        #expect(try Self.counts(store).kept.sessions == ["60000 running challenge 1"])
        try store.recordSessionFinished(first, nowUnixNanoseconds: Sample.now)
        try Self.expectConsistent(store, "its finish")
        #expect(try Self.counts(store).kept.sessions == ["60000 completed challenge 1"])
        #expect(try store.recordSessionFinished(first, nowUnixNanoseconds: Sample.now).stored == false)
        try Self.expectConsistent(store, "a repeated finish")

        var imports: [SessionFinishRecord] = []
        for index in 0..<40 {
            let mode = SessionMode.allCases[index % 3]
            let status: SessionStatus = index % 7 == 0 ? .aborted : (index % 11 == 0 ? .interrupted : .completed)
            imports.append(try Self.finish(sid("I\(index)"), mode, seconds: [30, 60, 120, 300, 600, 900][index % 6], status: status, day: Int64(index % 20)))
        }
        #expect(try store.importFinishedSessions(imports + [first], nowUnixNanoseconds: Sample.now) == 40)
        try Self.expectConsistent(store, "an import")

        let dead = try Self.finish(sid("D1"), .passive, seconds: 120)
        try store.recordSessionStarted(SessionStartRecord(sessionID: sid("D1"), configuration: dead.outcome.configuration, anchor: dead.anchor,
                                                          board: "pi4b", soundAudible: true, wallClockSynchronised: true),
                                       writer: ProcessIdentity(bootID: "an-old-boot", pid: 1, startTicks: 1))
        #expect(try store.recoverInterruptedSessions(nowUnixNanoseconds: Sample.now) == [sid("D1")])
        try Self.expectConsistent(store, "crash recovery")
        #expect(try store.reopenRecoveredSession(sid("D1")))
        try Self.expectConsistent(store, "reopening a recovered session")
        try store.recordSessionFinished(dead, nowUnixNanoseconds: Sample.now)
        try Self.expectConsistent(store, "finishing the reopened session")

        // Another connection (as the daemon or `import` in another process would be) writes; the
        // first store's next read has it.
        let before = try store.progress(nowUnixNanoseconds: Sample.now, utcOffsetSeconds: 3600).completedByMode[.fear, default: 0]
        do {
            let other = try ChronoStore.openForTest(directory)
            try other.recordSessionFinished(try Self.finish(sid("O1"), .fear, seconds: 30, day: 3), nowUnixNanoseconds: Sample.now)
        }
        #expect(try store.progress(nowUnixNanoseconds: Sample.now, utcOffsetSeconds: 3600).completedByMode[.fear, default: 0] == before + 1)
        try Self.expectConsistent(store, "another connection's write")

        let deleted = try store.deleteAllLocalData()
        #expect(deleted.sessions == 43)
        #expect(try Self.counts(store).kept == Counts(sessions: [], presetUses: []))
        try Self.expectConsistent(store, "delete-all")
        #expect(try store.progress(nowUnixNanoseconds: Sample.now, utcOffsetSeconds: 3600).isEmpty)

        try store.recordSessionFinished(try Self.finish(sid("A1"), .passive, seconds: 60, day: 1), nowUnixNanoseconds: Sample.now)
        try Self.expectConsistent(store, "a session after delete-all")
        #expect(try Self.counts(store).kept.sessions == ["60000 completed passive 1"])
    }

    @Test("a store from before the totals gets them filled from its rows when it is opened")
    func migrationFillsTheTotals() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let store = try ChronoStore.openForTest(directory)
            var finishes: [SessionFinishRecord] = []
            for index in 0..<25 {
                finishes.append(try Self.finish(sid("M\(index)"), SessionMode.allCases[index % 3], seconds: [30, 60, 300][index % 3],
                                                status: index % 5 == 0 ? .aborted : .completed, day: Int64(index)))
            }
            try store.importFinishedSessions(finishes, nowUnixNanoseconds: Sample.now)
            // Back to the schema before this migration: no totals, no triggers, the migration not applied.
            try store.write { db in
                for trigger in ["session_tally_insert", "session_tally_delete", "session_tally_update",
                                "preset_use_tally_insert", "preset_use_tally_delete", "preset_use_tally_update"] {
                    try db.execute(sql: "DROP TRIGGER \(trigger)")
                }
                try db.execute(sql: "DROP TABLE session_tally")
                try db.execute(sql: "DROP TABLE preset_use_tally")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [ProgressTallySchema.migrationIdentifier])
            }
        }
        let reopened = try ChronoStore.openForTest(directory)
        #expect(try reopened.appliedMigrations().contains(ProgressTallySchema.migrationIdentifier))
        let (kept, counted) = try Self.counts(reopened)
        #expect(kept == counted)
        #expect(kept.sessions.count == 6)
        try Self.expectConsistent(reopened, "the migration")
    }
}
