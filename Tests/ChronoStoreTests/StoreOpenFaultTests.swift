import ChronoTesting
import ChronoCore
@testable import ChronoStore
import Foundation
import GRDB
import Testing

/// A database that is damaged or newer is refused before anything writes to it, and the paths people
/// get wrong are named for what they are.
@Suite("Opening the store: check first, write after")
struct StoreOpenFaultTests {
    /// A store with history, checkpointed so that the main file holds everything.
    func makeStore(_ directory: TemporaryDirectory) throws -> String {
        let store = try ChronoStore.openForTest(directory)
        try store.importFinishedSessions((0..<200).map { Sample.finish(sid("S\($0)"), Sample.attempts(.challenge, [61, 62, 63])) }, nowUnixNanoseconds: Sample.now)
        try store.pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        return StoreLocation(directory: directory.path).databasePath
    }

    @Test("a damaged page is found at open and the file keeps every byte")
    func damagedIsRefusedUnchanged() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = try makeStore(directory)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for index in 4096 * 2..<4096 * 2 + 8 { bytes[index] = 0xFF }
        try bytes.write(to: URL(fileURLWithPath: path))
        var refusal: StoreError?
        do { _ = try ChronoStore.openForTest(directory) } catch { refusal = error as? StoreError }
        guard case .corrupt(_, let detail) = try #require(refusal) else { Issue.record("\(String(describing: refusal))"); return }
        #expect(detail.contains("integrity"))
        #expect(!detail.contains("\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test("a newer schema is refused and the file keeps every byte")
    func newerIsRefusedUnchanged() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = try makeStore(directory)
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')") }
            try queue.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var refusal: StoreError?
        do { _ = try ChronoStore.openForTest(directory) } catch { refusal = error as? StoreError }
        guard case .newerSchema(_, let migrations) = try #require(refusal) else { Issue.record("\(String(describing: refusal))"); return }
        #expect(migrations == ["v99-from-the-future"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("--data-dir naming a file, and a directory where the database should be, say so")
    func pathsNamedForWhatTheyAre() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path + "/a-file"
        FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
        var refusal: StoreError?
        do { _ = try ChronoStore.open(StoreLocation(directory: file)) } catch { refusal = error }
        #expect(refusal?.description.contains("it is a file, not a directory") == true)

        try FileManager.default.createDirectory(atPath: directory.path + "/data/" + StoreLocation.databaseFileName, withIntermediateDirectories: true)
        refusal = nil
        do { _ = try ChronoStore.open(StoreLocation(directory: directory.path + "/data")) } catch { refusal = error }
        #expect(refusal?.description.contains("is a directory where the database file should be") == true)
    }

    @Test("the parent of a path, for the read-only probe")
    func parentDirectory() {
        #expect(ChronoStore.parentDirectory(of: "d") == ".")
        #expect(ChronoStore.parentDirectory(of: "a/b/") == "a")
        #expect(ChronoStore.parentDirectory(of: "/a") == "/")
        #expect(ChronoStore.parentDirectory(of: "/") == nil)
        #expect(ChronoStore.parentDirectory(of: ".") == nil)
    }

    @Test("a CSV cutoff far in the past saturates instead of trapping")
    func cutoffSaturates() {
        #expect(ChronoStore.cutoff(now: Sample.now, days: Int.max) == Int64.min)
        #expect(ChronoStore.cutoff(now: Sample.now, days: 1) == Sample.now - 86_400_000_000_000)
    }

    @Test("a stored long press outside its range falls back to the default")
    func storedLongPressIsBounded() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try store.pool.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO setting (key, value, updated_unix_seconds) VALUES ('long-press-ms', '9223372036854775807', 0)")
        }
        #expect(try store.settings().session.longPress == GestureSettings.defaultLongPress)
    }
}

/// Times read back from the file meet the same limits as any input: a damaged row is reported, not
/// computed with.
@Suite("Out-of-range values in the database")
struct StoredValueFaultTests {
    @Test("a mark near Int64.max and an absurd UTC offset are reported as damage by every reader")
    func damagedRowsAreReported() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try store.importFinishedSessions((0..<5).map { Sample.finish(sid("S\($0)"), Sample.attempts(.challenge, [61, 62, 63])) }, nowUnixNanoseconds: Sample.now)
        try store.pool.write { db in
            try db.execute(sql: "UPDATE attempt SET tap_mono_ns = 9223372036854775807 WHERE attempt_index = 1")
        }
        func isCorrupt(_ body: () throws -> Void) -> Bool {
            do { try body(); return false } catch let error as StoreError {
                if case .corrupt = error { return true }
                return false
            } catch { return false }
        }
        #expect(isCorrupt { try store.exportCSV(days: nil, nowUnixNanoseconds: Sample.now) { _ in } })
        #expect(isCorrupt { _ = try store.healthRecords() })
        try store.pool.write { db in
            try db.execute(sql: "UPDATE attempt SET tap_mono_ns = start_mono_ns + 60000000000")
            try db.execute(sql: "UPDATE session SET utc_offset_seconds = 9223372036854775807")
        }
        #expect(isCorrupt { _ = try store.recentSessions(limit: 10) })
        #expect(isCorrupt { _ = try store.progress(nowUnixNanoseconds: Sample.now, utcOffsetSeconds: 0) })
    }

    @Test("a damaged interval, abort window or pattern is reported as damage naming the session, by every reader, never replaced")
    func damagedConfigurationIsRefused() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        let id = sid("S0")
        try store.importFinishedSessions([Sample.finish(id, Sample.attempts(.challenge, [61, 62, 63]))], nowUnixNanoseconds: Sample.now)
        func detail(_ body: () throws -> Void) -> String? {
            do { try body(); return nil } catch let error as StoreError {
                if case .corrupt(_, let detail) = error { return detail }
                return "not corrupt: \(error)"
            } catch { return "not a StoreError: \(error)" }
        }
        func damage(_ sql: String) throws { try store.pool.write { db in try db.execute(sql: sql) } }
        // Before, the read clamped this to 120m 59s and the outbox sent it on.
        try damage("UPDATE session SET target_interval_ms = 9223372036854775807")
        let interval = "session \(id) holds a target interval of 9223372036854775807 ms, outside 1…7259000 ms"
        #expect(detail { _ = try store.session(id: id) } == interval)
        #expect(detail { _ = try store.recentSessions(limit: 10) } == interval)
        // Progress reads the totals the triggers keep first: the damage is named there.
        #expect(detail { _ = try store.progress(nowUnixNanoseconds: Sample.now, utcOffsetSeconds: 0) }
                == "table session_tally holds a target interval of 9223372036854775807 ms, outside 1…7259000 ms")
        try damage("UPDATE session SET target_interval_ms = 61000, abort_window_ms = 0")
        #expect(detail { _ = try store.session(id: id) }?.hasPrefix("session \(id) holds a configuration no session can have: ") == true)
        try damage("UPDATE session SET abort_window_ms = 3000, interval_pattern = 'S S S S S S'")
        let pattern = "is not an interval pattern: use 1 to 5 short (S) and long (L) pulses only."
        #expect(detail { _ = try store.session(id: id) }?.hasSuffix(pattern) == true)
        #expect(detail { _ = try store.progress(nowUnixNanoseconds: Sample.now, utcOffsetSeconds: 0) } == "session \(id) holds the interval pattern 'S S S S S S', which is not one")
        try damage("UPDATE session SET interval_pattern = 'S L'")
        #expect(detail { _ = try store.session(id: id) } == nil)
    }

    @Test("a reason an older version kept with a newline or an escape reads with them escaped, and the session still syncs")
    func olderReasonReadsEscaped() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        let id = sid("R0")
        try store.importFinishedSessions([Sample.finish(id, Sample.attempts(.challenge, [61, 62, 63]))], nowUnixNanoseconds: Sample.now)
        try store.pool.write { db in try db.execute(sql: "UPDATE session SET reason = ?", arguments: ["the loop failed:\nline busy \u{1B}[2J"]) }
        let session = try store.session(id: id)
        #expect(session.outcome.reason == "the loop failed:\\nline busy \\u{1B}[2J")
        #expect(try session.record?.validatedOutcome().reason == session.outcome.reason)
    }
}

@Suite("Durability of commits")
struct CommitDurabilityTests {
    @Test("the connection that commits runs with synchronous = FULL (GRDB's WAL set-up would leave NORMAL)")
    func writerIsFullSynchronous() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        let level = try store.pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(level == 2)
    }
}
