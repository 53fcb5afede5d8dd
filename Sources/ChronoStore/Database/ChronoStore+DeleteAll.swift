import GRDB

extension ChronoStore {
    /// What `delete-all` removed.
    public struct DeletionReport: Hashable, Sendable {
        public var sessions: Int
        public var settings: Int
    }

    /// Deletes every local record — sessions, attempts, boundaries, presets, pattern assignments,
    /// settings and the health-log ledger — in one transaction, then reclaims the space (VACUUM) so the
    /// data is gone from the file too. The health log file is not touched (SPEC §9): records already
    /// written there belong to whoever reads that log now.
    ///
    /// Sync (docs/SYNC.md): the outbox and the preference stamps go with the data; the device's UUID,
    /// its enrolment, the cursor and the highest preference clock stay. A collector keeps the copies
    /// it has (deleting here never reaches it); sessions made afterwards are numbered after every
    /// earlier position and pushed as usual; the collector's preferences come back at the next sync
    /// (`sync remove` first to stop that).
    public func deleteAllLocalData() throws(StoreError) -> DeletionReport {
        let report = try write { db in
            let sessions = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session") ?? 0
            let settings = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM setting") ?? 0
            for table in ["sync_outbox", "sync_preference", "health_ledger", "passive_boundary", "attempt", "preset_use", "haptic_assignment", "setting", "session_study", "session"] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
            return DeletionReport(sessions: sessions, settings: settings)
        }
        do {
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "VACUUM")
                try db.checkpoint(.truncate)
            }
        } catch {
            throw mapped(error)
        }
        return report
    }
}
