import Foundation
import GRDB

/// The device's side of sync (docs/SYNC.md, "The device"): one migration of its own, registered after
/// the others.
///
/// - `sync_device`: one row made once — the device's own UUID (the same for every collector), the
///   cursor (the highest outbox position a collector acknowledged) and the highest preference clock
///   this device has seen (kept through `delete-all`, so a Lamport clock never goes back).
/// - `sync_outbox`: finished sessions numbered in the order they were saved, imported or recovered.
///   AUTOINCREMENT, so a position is never reused, even after `delete-all` empties the table.
/// - `sync_enrolment`: the collector this device pushes to, with its key (the key is a bearer
///   secret the device must present, so it is kept as it is, in the store's own file; it is never
///   printed or exported).
/// - `sync_status`: the last success, the last attempt and why the last attempt failed.
/// - `sync_preference`: the Lamport stamp of each synced setting.
enum SyncSchema {
    static let migrationIdentifier = "sync-v1"

    static func migrate(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE sync_device (
                singleton INTEGER PRIMARY KEY NOT NULL CHECK (singleton = 1),
                device_id TEXT NOT NULL,
                cursor INTEGER NOT NULL DEFAULT 0 CHECK (cursor >= 0),
                highest_clock INTEGER NOT NULL DEFAULT 0
            )
            """)
        try db.execute(sql: "INSERT INTO sync_device (singleton, device_id) VALUES (1, ?)", arguments: [UUID().uuidString.lowercased()])
        try db.execute(sql: """
            CREATE TABLE sync_outbox (
                position INTEGER PRIMARY KEY AUTOINCREMENT,
                session_id TEXT NOT NULL UNIQUE REFERENCES session (id) ON DELETE CASCADE
            )
            """)
        // Sessions completed before sync existed are pending too, oldest first.
        try db.execute(sql: """
            INSERT INTO sync_outbox (session_id)
            SELECT id FROM session WHERE status = 'completed' ORDER BY started_unix_ns, id
            """)
        try db.execute(sql: """
            CREATE TABLE sync_enrolment (
                singleton INTEGER PRIMARY KEY NOT NULL CHECK (singleton = 1),
                collector_url TEXT NOT NULL,
                device_key TEXT NOT NULL,
                collector_id TEXT NOT NULL,
                device_name TEXT NOT NULL,
                enrolled_unix_ns INTEGER NOT NULL
            )
            """)
        try db.execute(sql: """
            CREATE TABLE sync_status (
                singleton INTEGER PRIMARY KEY NOT NULL CHECK (singleton = 1),
                last_success_unix_ns INTEGER,
                last_attempt_unix_ns INTEGER,
                consecutive_failures INTEGER NOT NULL DEFAULT 0,
                last_failure_code TEXT,
                last_failure_message TEXT,
                preference_problem TEXT
            )
            """)
        try db.execute(sql: """
            CREATE TABLE sync_preference (
                key TEXT PRIMARY KEY NOT NULL,
                clock INTEGER NOT NULL CHECK (clock > 0),
                origin TEXT NOT NULL CHECK (origin IN ('device', 'collector'))
            )
            """)
        // Settings the user changed before sync existed are the device's changes, at clock 1: a new
        // collector learns them rather than overriding them with its defaults.
        let synced = SyncSchema.syncedKeysSQL
        try db.execute(sql: "INSERT INTO sync_preference (key, clock, origin) SELECT key, 1, 'device' FROM setting WHERE key IN (\(synced))")
        try db.execute(sql: "UPDATE sync_device SET highest_clock = (SELECT COALESCE(MAX(clock), 0) FROM sync_preference)")
    }

    /// The synced keys as an SQL list, fixed at this migration (a later key gets its own migration).
    private static let syncedKeysSQL = [
        "default-mode", "default-interval", "default-attempts", "default-repetitions",
        "fear-mode", "fear-threshold", "health-logging", "auto-start", "long-press-ms",
    ].map { "'\($0)'" }.joined(separator: ", ")
}
