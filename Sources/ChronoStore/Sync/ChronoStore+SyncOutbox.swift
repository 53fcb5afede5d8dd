import ChronoCore
import ChronoSync
import GRDB

extension ChronoStore {
    /// Numbers a session that has just finished (saved completed or aborted, imported, or recovered as
    /// interrupted), in the transaction that finishes it, so a finished session is in the outbox exactly
    /// when it is in the store. Aborted and interrupted sessions travel with their status and reason (a
    /// study counts dropout); only a running session never does.
    func addToOutbox(_ db: Database, sessionID: String) throws {
        try db.cachedStatement(sql: "INSERT INTO sync_outbox (session_id) VALUES (?) ON CONFLICT (session_id) DO NOTHING")
            .execute(arguments: [sessionID])
    }

    /// Queues a completed session to be sent again because a field that may change after it finished
    /// (its note) changed: its outbox entry is numbered anew, after the cursor, in the changing
    /// transaction. A collector that has the session takes the new note and counts the rest as a
    /// duplicate; one that never had it stores it once as usual.
    func requeueForSync(_ db: Database, sessionID: String) throws {
        try db.cachedStatement(sql: "DELETE FROM sync_outbox WHERE session_id = ?").execute(arguments: [sessionID])
        try db.cachedStatement(sql: "INSERT INTO sync_outbox (session_id) VALUES (?)").execute(arguments: [sessionID])
    }

    /// The next batch after the cursor: at most `limit` finished sessions in outbox order, as they
    /// cross the wire. Empty (`after == through`) when nothing is pending.
    public func syncOutboxBatch(limit: Int = SyncProtocol.maximumSessionsPerBatch) throws(StoreError) -> SyncOutboxBatch {
        try read { db in
            let cursor = try Int64.fetchOne(db, sql: "SELECT cursor FROM sync_device") ?? 0
            let entries = try Row.fetchAll(db, sql: "SELECT position, session_id FROM sync_outbox WHERE position > ? ORDER BY position LIMIT ?",
                                           arguments: [cursor, max(limit, 1)])
            guard let last = entries.last else { return SyncOutboxBatch(after: cursor, through: cursor, sessions: []) }
            let ids: [String] = entries.map { $0["session_id"] }
            let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ", ")
            let filter = "s.id IN (\(placeholders))"
            let stored = try loadSessions(db, filter: filter, arguments: StatementArguments(ids))
            let byID = Dictionary(stored.map { ($0.sessionID, $0) }, uniquingKeysWith: { first, _ in first })
            let sessions = ids.compactMap { id in byID[id]?.record }
            return SyncOutboxBatch(after: cursor, through: last["position"], sessions: sessions)
        }
    }

    /// Records a batch the collector acknowledged: moves the cursor (never back, never past the
    /// highest position ever numbered), marks the success, and applies the collector's preferences that won — all in one
    /// transaction, so a crash leaves either the old cursor (the batch is sent again, every session a
    /// duplicate) or the new one with its preferences.
    @discardableResult
    public func recordSyncSuccess(acknowledgedThrough: Int64, preferences received: [StampedPreference],
                                  nowUnixNanoseconds now: Int64) throws(StoreError) -> SyncPreferenceResult {
        try write { db in
            try db.execute(sql: """
                UPDATE sync_device SET cursor = MAX(cursor, MIN(?, COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'sync_outbox'), 0)))
                """, arguments: [acknowledgedThrough])
            let result = try applyReceivedPreferences(db, received, nowUnixSeconds: now / 1_000_000_000)
            try db.execute(sql: """
                INSERT INTO sync_status (singleton, last_success_unix_ns, last_attempt_unix_ns, consecutive_failures, preference_problem)
                VALUES (1, ?, ?, 0, ?)
                ON CONFLICT (singleton) DO UPDATE SET last_success_unix_ns = excluded.last_success_unix_ns,
                    last_attempt_unix_ns = excluded.last_attempt_unix_ns, consecutive_failures = 0,
                    last_failure_code = NULL, last_failure_message = NULL, preference_problem = excluded.preference_problem
                """, arguments: [now, now, result.refused.isEmpty ? nil : result.refused.joined(separator: "; ")])
            return result
        }
    }
}
