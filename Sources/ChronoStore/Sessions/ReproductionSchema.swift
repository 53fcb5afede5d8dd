import GRDB

/// Reproduction in the device's store (docs/REPRODUCTION.md), one migration registered after the others:
///
/// - `session.mode` accepts `reproduction`. SQLite cannot change a CHECK constraint in place, so the
///   table is rebuilt the way SQLite documents ("Making Other Kinds Of Table Schema Changes"): the
///   new table from the current definition with the one CHECK changed (so columns added by earlier
///   migrations come along), every row copied, the old table dropped, the new one renamed, then its
///   indexes and triggers created again from their stored definitions. The migrator runs it with
///   foreign keys off and checks them before committing, so the rows of `attempt`, `passive_boundary`,
///   `session_study`, the ledger and the outbox keep pointing at their sessions.
/// - `attempt` gains the presented interval's two onsets, `presented_start_mono_ns` and
///   `presented_end_mono_ns` (NULL outside Reproduction).
enum ReproductionSchema {
    static let migrationIdentifier = "reproduction-v1"

    static let oldModeCheck = "CHECK (mode IN ('challenge', 'fear', 'passive'))"
    static let newModeCheck = "CHECK (mode IN ('challenge', 'fear', 'passive', 'reproduction'))"

    static func migrate(_ db: Database) throws {
        guard let definition = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'session'"),
              definition.contains(oldModeCheck), definition.hasPrefix("CREATE TABLE session (") else {
            throw DatabaseError(message: "the session table's definition is not the one this migration rebuilds")
        }
        let dependents = try String.fetchAll(db, sql: """
            SELECT sql FROM sqlite_master WHERE tbl_name = 'session' AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY type, name
            """)
        let rebuilt = "CREATE TABLE session_rebuilt (" + definition.dropFirst("CREATE TABLE session (".count)
        try db.execute(sql: rebuilt.replacingOccurrences(of: oldModeCheck, with: newModeCheck))
        try db.execute(sql: "INSERT INTO session_rebuilt SELECT * FROM session")
        try db.execute(sql: "DROP TABLE session")
        try db.execute(sql: "ALTER TABLE session_rebuilt RENAME TO session")
        for statement in dependents { try db.execute(sql: statement) }
        try db.execute(sql: "ALTER TABLE attempt ADD COLUMN presented_start_mono_ns INTEGER")
        try db.execute(sql: "ALTER TABLE attempt ADD COLUMN presented_end_mono_ns INTEGER")
    }
}
