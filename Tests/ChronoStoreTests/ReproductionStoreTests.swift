import ChronoTesting
import ChronoCore
@testable import ChronoStore
import Foundation
import GRDB
import Testing

@Suite("Reproduction in the device's store: the mode, the presented marks, the rebuilt session table")
struct ReproductionStoreTests {
    /// A completed Reproduction session at 10 s: presented 2 s to 12 s, reproduced from 12.8 s to 23.3 s.
    static func reproduction() -> SessionOutcome {
        let interval = try! TrainingInterval(seconds: 10)
        let configuration = try! SessionConfiguration(mode: .reproduction, interval: interval)
        let attempt = AttemptMeasurement(index: 1, target: interval, startMark: Sample.seconds(12.8), tapMark: Sample.seconds(23.3),
                                         presentedStart: Sample.seconds(2), presentedEnd: Sample.seconds(12))
        return SessionOutcome(status: .completed, configuration: configuration, startedAt: Sample.seconds(0), endedAt: attempt.tapMark,
                              attempts: [attempt], boundaries: [], fearSoundEffective: false, reason: nil)
    }

    @Test("a Reproduction session is saved and read back with its presented marks, ratio 1.05")
    func roundTrip() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try store.recordSessionFinished(Sample.finish(sid("R1"), Self.reproduction()), nowUnixNanoseconds: Sample.now)
        let session = try store.session(id: sid("R1"))
        #expect(session.outcome.mode == .reproduction)
        let attempt = try #require(session.outcome.attempts.first)
        #expect(attempt.presentedStart == Sample.seconds(2))
        #expect(attempt.presentedEnd == Sample.seconds(12))
        #expect(attempt.ratio == 1.05)
        #expect(session.outcome == Self.reproduction())
    }

    @Test("a challenge session's attempt keeps NULL presented marks")
    func otherModes() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try store.recordSessionFinished(Sample.finish(sid("C1"), Sample.attempts(.challenge, [61.5])), nowUnixNanoseconds: Sample.now)
        let marks = try store.read { db in try Row.fetchOne(db, sql: "SELECT presented_start_mono_ns, presented_end_mono_ns FROM attempt") }
        #expect(marks?[0] as Int64? == nil)
        #expect(marks?[1] as Int64? == nil)
        #expect(try store.session(id: sid("C1")).outcome.attempts[0].presentedStart == nil)
    }

    @Test("a database from before Reproduction: the session table is rebuilt with its rows, indexes, triggers and references")
    func rebuild() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let queue = try DatabaseQueue(path: directory.path + "/old.sqlite")
        try StoreSchema.migrator.migrate(queue, upTo: StudySchema.migrationIdentifier)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO session (id, mode, target_interval_ms, planned_count, done_count, status, fear_threshold_percent,
                    sound_audible_at_start, interval_pattern, auto_start_next_attempt, feedback_ms, abort_window_ms, debounce_ms,
                    long_press_ms, started_mono_ns, ended_mono_ns, anchor_unix_ns, anchor_mono_ns, utc_offset_seconds, started_unix_ns,
                    wall_clock_synchronised, board, boot_id, writer_pid, writer_start_ticks, attempt_count, time_acuity_score, note)
                VALUES ('S1', 'challenge', 60000, 1, 1, 'completed', 0.1, 1, 'S', 0, 1500, 5000, 30, 1500, 100, 62000000100,
                    1795000000000000000, 100, 3600, 1795000000000000000, 1, 'pi4b', 'boot', 1, 1, 1, 90, 'after coffee')
                """)
            try db.execute(sql: "INSERT INTO attempt (session_id, attempt_index, start_mono_ns, tap_mono_ns) VALUES ('S1', 1, 1000000100, 62000000100)")
        }
        let before = try queue.read { db in try Row.fetchOne(db, sql: "SELECT * FROM session") }
        let schemaBefore = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT type || ' ' || name FROM sqlite_master WHERE tbl_name = 'session' AND type <> 'table' ORDER BY 1")
        }
        try StoreSchema.migrator.migrate(queue)
        let (after, schemaAfter, violations, integrity, tally) = try queue.read { db in
            (try Row.fetchOne(db, sql: "SELECT * FROM session"),
             try String.fetchAll(db, sql: "SELECT type || ' ' || name FROM sqlite_master WHERE tbl_name = 'session' AND type <> 'table' ORDER BY 1"),
             try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count,
             try String.fetchAll(db, sql: "PRAGMA integrity_check"),
             try Int.fetchOne(db, sql: "SELECT sessions FROM session_tally WHERE mode = 'challenge'"))
        }
        #expect(after == before)
        #expect(schemaAfter == schemaBefore)
        #expect(schemaBefore.count == 7)  // three indexes, three tally triggers, the primary key's own index
        #expect(violations == 0)
        #expect(integrity == ["ok"])
        #expect(tally == 1)
        let (reproductionTally, refused, attemptsLeft) = try queue.write { db in
            try db.execute(sql: "UPDATE session SET mode = 'reproduction' WHERE id = 'S1'")
            let tally = try Int.fetchOne(db, sql: "SELECT sessions FROM session_tally WHERE mode = 'reproduction'")
            var refused = false
            do { try db.execute(sql: "UPDATE session SET mode = 'sprint' WHERE id = 'S1'") } catch { refused = true }
            try db.execute(sql: "DELETE FROM session WHERE id = 'S1'")
            return (tally, refused, try Int.fetchOne(db, sql: "SELECT count(*) FROM attempt"))
        }
        #expect(reproductionTally == 1)
        #expect(refused)
        #expect(attemptsLeft == 0)  // the reference follows the rebuilt table: ON DELETE CASCADE still works
    }
}
