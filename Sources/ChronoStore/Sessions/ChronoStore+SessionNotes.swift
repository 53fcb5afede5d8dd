import ChronoCore
import GRDB

/// What `setNote` did.
public struct SessionNoteChange: Hashable, Sendable {
    /// The session's canonical id.
    public var sessionID: String
    /// The note as stored (trimmed), nil when the session has none now.
    public var note: String?
    /// False when the session already had exactly this note (nothing was written or re-sent).
    public var changed: Bool
    /// True when the change queued the session to be sent to the collector again (a finished session).
    public var queuedForSync: Bool
}

extension ChronoStore {
    /// Sets or clears (`nil`, or text that is empty once trimmed) a session's note, after the core's
    /// one validator (`SessionNote`). A finished session (completed, aborted or interrupted) whose note
    /// changed is queued for sync again (its outbox entry moves after the cursor, `requeueForSync`), so
    /// the collector's copy of the note follows; nothing else about a session ever changes after it
    /// finished.
    @discardableResult
    public func setNote(sessionID: String, note: String?) throws(StoreError) -> SessionNoteChange {
        let checked: String?
        do { checked = try SessionNote.validated(note) } catch { throw .invalidValue(error.message) }
        let id = CanonicalUUID(sessionID)?.text ?? sessionID
        return try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT status, note FROM session WHERE id = ?", arguments: [id]) else {
                throw StoreError.unknownSession(id)
            }
            let status: String = row["status"]
            let current: String? = row["note"]
            guard current != checked else {
                return SessionNoteChange(sessionID: id, note: checked, changed: false, queuedForSync: false)
            }
            try db.execute(sql: "UPDATE session SET note = ? WHERE id = ?", arguments: [checked, id])
            // A running session is sent when it finishes, with its note then.
            let queued = status != "running"
            if queued { try requeueForSync(db, sessionID: id) }
            return SessionNoteChange(sessionID: id, note: checked, changed: true, queuedForSync: queued)
        }
    }

    /// The ids of sessions whose id starts with `prefix` (compared in upper case, as ids are kept),
    /// newest first, at most `limit`: for a command line that takes the first characters of an id.
    public func sessionIDs(withPrefix prefix: String, limit: Int = 2) throws(StoreError) -> [String] {
        let upper = prefix.uppercased()
        // Only the characters of a UUID; anything else matches nothing (and GLOB's own
        // metacharacters never reach the pattern).
        guard !upper.isEmpty, upper.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || $0 == 0x2D }) else { return [] }
        return try read { db in
            try String.fetchAll(db, sql: "SELECT id FROM session WHERE id GLOB ? ORDER BY started_unix_ns DESC, id DESC LIMIT ?",
                                arguments: [upper + "*", max(1, limit)])
        }
    }

    /// The most recently started session's id, nil in an empty store.
    public func latestSessionID() throws(StoreError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT id FROM session ORDER BY started_unix_ns DESC, id DESC LIMIT 1") }
    }

    /// A stored note read back through the same validator it was saved with: a row edited or damaged
    /// since is reported as damage, never shown or sent.
    static func storedNote(_ row: Row) throws -> String? {
        let stored: String? = row["note"]
        guard let stored else { return nil }
        let checked: String?
        do { checked = try SessionNote.validated(stored) } catch {
            throw StoredValueCheck.OutOfRange(description: "session \(row["id"] as String? ?? "?") holds a note the rules refuse: \(error.message)")
        }
        guard checked == stored else {
            throw StoredValueCheck.OutOfRange(description: "session \(row["id"] as String? ?? "?") holds a note with surrounding whitespace")
        }
        return checked
    }
}
