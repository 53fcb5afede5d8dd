import GRDB

/// Aborted and interrupted sessions travel to a collector too (with their status and reason; a study
/// counts adherence and dropout). Those a device already holds when it upgrades are numbered into the
/// outbox once, oldest first, after every completed session already numbered, so they are sent with
/// the next batches and nothing already acknowledged is sent again.
enum SyncUnfinishedSchema {
    static let migrationIdentifier = "sync-unfinished-v1"

    static func migrate(_ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO sync_outbox (session_id)
            SELECT id FROM session WHERE status IN ('aborted', 'interrupted') ORDER BY started_unix_ns, id
            ON CONFLICT (session_id) DO NOTHING
            """)
    }
}
