import ChronoCore
import ChronoTesting
@testable import ChronoStore
import GRDB
import Testing

/// A person's note on a session (issue 22): kept in the store, shown in every read, exported, and
/// re-queued for sync when it changes.
@Suite("Session notes in the store")
struct SessionNoteStoreTests {
    static func open(_ directory: TemporaryDirectory) throws -> ChronoStore {
        let store = try ChronoStore.openForTest(directory)
        try store.recordSessionFinished(Sample.finish(sid("N1"), Sample.attempts(.challenge, [61.5, 58.25])), nowUnixNanoseconds: Sample.now)
        return store
    }

    @Test("set, read back in every read, change, clear; the migration is recorded")
    func roundTrip() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        #expect(try store.appliedMigrations().contains("session-note-v1"))
        #expect(try store.session(id: sid("N1")).note == nil)

        let set = try store.setNote(sessionID: sid("N1").lowercased(), note: "  after coffee \n")
        #expect(set == SessionNoteChange(sessionID: sid("N1"), note: "after coffee", changed: true, queuedForSync: true))
        #expect(try store.session(id: sid("N1")).note == "after coffee")
        let lines = try store.recentSessions(limit: 5)
        #expect(lines.map(\.note) == ["after coffee"])
        #expect(try store.sessionPage(SessionQuery(limit: 5)).sessions.map(\.note) == ["after coffee"])
        #expect(lines[0].json.compactText.hasSuffix(#""health_log":"written","note":"after coffee","timing_late_ms":null}"#))
        let table = ProgressText.sessionTable(lines)
        #expect(table.count == 3)
        #expect(table[2] == "    Note: after coffee")

        // Reopened, still there.
        #expect(try ChronoStore.openForTest(directory).session(id: sid("N1")).note == "after coffee")

        #expect(try store.setNote(sessionID: sid("N1"), note: "tired").note == "tired")
        #expect(try store.setNote(sessionID: sid("N1"), note: "   ") == SessionNoteChange(sessionID: sid("N1"), note: nil, changed: true, queuedForSync: true))
        #expect(try store.session(id: sid("N1")).note == nil)
        #expect(try store.setNote(sessionID: sid("N1"), note: nil).changed == false)
        #expect(ProgressText.sessionTable(try store.recentSessions(limit: 5)).count == 2)
        #expect(try store.integrityCheck() == ["ok"])
    }

    @Test("a refused note and an unknown session change nothing and say why")
    func refusals() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        try store.setNote(sessionID: sid("N1"), note: "kept")
        do {
            try store.setNote(sessionID: sid("N1"), note: String(repeating: "x", count: 300))
            Issue.record("a 300-character note was stored")
        } catch {
            #expect(error.description == "The note is 300 characters long; a note holds at most 200. Shorten it.")
        }
        do {
            try store.setNote(sessionID: sid("N1"), note: "a\u{1B}[2Jb")
            Issue.record("a control character was stored")
        } catch {
            #expect(error.description == "The note holds a control character (U+001B); write it on one line with ordinary characters.")
        }
        do {
            try store.setNote(sessionID: sid("NONE"), note: "x")
            Issue.record("an unknown session got a note")
        } catch {
            #expect(error.description == "No session \(sid("NONE")) in the store.")
        }
        #expect(try store.session(id: sid("N1")).note == "kept")
    }

    @Test("a changed note re-queues a finished session of any status after the cursor; the same note does not")
    func outboxRequeue() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        try store.recordSessionFinished(Sample.finish(sid("N2"), Sample.attempts(.challenge, [60], status: .aborted)), nowUnixNanoseconds: Sample.now)
        try store.recordSyncSuccess(acknowledgedThrough: 2, preferences: [], nowUnixNanoseconds: Sample.now)
        #expect(try store.syncState().pending == 0)

        try store.setNote(sessionID: sid("N1"), note: "after coffee")
        #expect(try store.syncState().pending == 1)
        let batch = try store.syncOutboxBatch()
        #expect(batch.after == 2 && batch.through == 3)
        #expect(batch.sessions.map(\.id) == [sid("N1")])
        #expect(batch.sessions.map(\.note) == ["after coffee"])

        // The same note again: nothing to send again.
        #expect(try store.setNote(sessionID: sid("N1"), note: "after coffee ").changed == false)
        #expect(try store.syncOutboxBatch().through == 3)
        try store.recordSyncSuccess(acknowledgedThrough: 3, preferences: [], nowUnixNanoseconds: Sample.now)
        #expect(try store.syncState().pending == 0)

        // An aborted session travels too (a study counts dropout), and so does its note.
        #expect(try store.setNote(sessionID: sid("N2"), note: "phone rang").queuedForSync)
        let aborted = try store.syncOutboxBatch()
        #expect(aborted.after == 3 && aborted.through == 4)
        #expect(aborted.sessions.map(\.status) == ["aborted"] && aborted.sessions.map(\.note) == ["phone rang"])
        try store.recordSyncSuccess(acknowledgedThrough: 4, preferences: [], nowUnixNanoseconds: Sample.now)

        // Cleared: sent again with no note.
        try store.setNote(sessionID: sid("N1"), note: nil)
        let cleared = try store.syncOutboxBatch()
        #expect(cleared.after == 4 && cleared.through == 5 && cleared.sessions.map(\.note) == [nil])
    }

    @Test("the CSV's last column is the note, quoted and with a formula neutralised; exact header")
    func csv() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        try store.recordSessionFinished(Sample.finish(sid("N3"), Sample.passive(planned: 1, done: 1)), nowUnixNanoseconds: Sample.now)
        try store.setNote(sessionID: sid("N1"), note: "after coffee, \"strong\"")
        try store.setNote(sessionID: sid("N3"), note: "=HYPERLINK(\"http://x\")")
        var text = ""
        try store.exportCSV(days: nil, nowUnixNanoseconds: Sample.now) { text += $0 }
        let records = text.components(separatedBy: "\r\n").dropLast()
        #expect(records.first == "session_id,session_started_at,session_ended_at,mode,status,target_interval_seconds,planned_count,done_count,board,fear_threshold_percent,fear_sound_effective,time_acuity_score,mean_abs_error_seconds,mean_signed_error_seconds,std_dev_error_seconds,mean_abs_percent_error,total_duration_seconds,health_log,row_kind,row_index,row_at,start_mark_ns,tap_mark_ns,elapsed_seconds,signed_error_seconds,abs_percent_error,zone,boundary_due_ns,boundary_fired_ns,boundary_fired_late_ms,timing_late_ms,note,presented_start_mono_ns,presented_end_mono_ns,feedback_withheld,results_withheld,reason")
        let coffee = records.filter { $0.hasPrefix(sid("N1")) }
        #expect(coffee.count == 2)
        #expect(coffee.allSatisfy { $0.hasSuffix(",,\"after coffee, \"\"strong\"\"\",,,,,") })
        let formula = records.filter { $0.hasPrefix(sid("N3")) }
        #expect(formula.count == 1)
        #expect(formula.allSatisfy { $0.hasSuffix(",,\"'=HYPERLINK(\"\"http://x\"\")\",,,,,") })
    }

    @Test("a note damaged in the file is reported as damage, never shown")
    func damagedNote() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        try store.write { db in try db.execute(sql: "UPDATE session SET note = ? WHERE id = ?", arguments: ["two\nlines", sid("N1")]) }
        do {
            _ = try store.session(id: sid("N1"))
            Issue.record("a damaged note was read")
        } catch {
            guard case .corrupt(_, let detail) = error else { Issue.record("\(error)"); return }
            #expect(detail == "session \(sid("N1")) holds a note the rules refuse: The note holds a line break; write it on one line with ordinary characters.")
        }
    }

    @Test("ids by prefix, newest first; only UUID characters match")
    func prefix() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        let id = sid("N1")
        #expect(try store.sessionIDs(withPrefix: String(id.prefix(8)).lowercased()) == [id])
        #expect(try store.sessionIDs(withPrefix: "*") == [])
        #expect(try store.sessionIDs(withPrefix: "") == [])
        #expect(try store.latestSessionID() == id)
    }
}
