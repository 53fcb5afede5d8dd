import GRDB

/// Before the loop stored each boundary's real firing instant, a stalled process (SIGSTOP, a long
/// scheduling delay) could store a boundary as fired before it was due — an instant copied from the
/// boundary before. No vibration begins before its deadline, so such a value is known to be wrong:
/// this migration forgets it (NULL means "not measured", which every reader already handles) instead
/// of leaving a row that `SessionValidation` calls damage on every read and a collector refuses in
/// every batch. Due instants are absolute and were always right; nothing else changes.
enum BoundaryFiringRepair {
    static let migrationIdentifier = "boundary-fired-before-due-v1"

    static func migrate(_ db: Database) throws {
        try db.execute(sql: "UPDATE passive_boundary SET fired_mono_ns = NULL WHERE fired_mono_ns < due_mono_ns")
    }
}
