import GRDB

/// A person's note on a session (`SessionNote`: trimmed, one line, at most 200 characters); NULL
/// when there is none, and for every session stored before notes existed. The CHECK only keeps an
/// empty string out (no note is NULL, one way); every other rule is the core's, applied by
/// `setNote` before it writes and by every read.
enum SessionNoteSchema {
    static let migrationIdentifier = "session-note-v1"

    static func migrate(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE session ADD COLUMN note TEXT CHECK (note IS NULL OR note <> '')")
    }
}
