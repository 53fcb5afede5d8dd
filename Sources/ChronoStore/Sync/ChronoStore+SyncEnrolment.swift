import GRDB

extension ChronoStore {
    /// The UUID this device made for itself when its store was created (or upgraded to sync).
    public func syncDeviceID() throws(StoreError) -> String {
        try read { db in try String.fetchOne(db, sql: "SELECT device_id FROM sync_device") ?? "" }
    }

    /// The collector this device is enrolled with, if any.
    public func syncEnrolment() throws(StoreError) -> SyncEnrolment? {
        try read { db in try enrolment(db) }
    }

    func enrolment(_ db: Database) throws -> SyncEnrolment? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM sync_enrolment") else { return nil }
        return SyncEnrolment(collectorURL: row["collector_url"], deviceKey: row["device_key"], collectorID: row["collector_id"],
                             deviceName: row["device_name"], enrolledUnixNanoseconds: row["enrolled_unix_ns"])
    }

    /// Keeps the collector's grant. One collector at a time: a second is refused (the existing one
    /// must be removed first, so pending sessions never go to a collector nobody chose). The cursor
    /// starts again from 0 for a new collector: it has none of this device's sessions yet. With a
    /// `machineBinding` (`MachineBinding.current()`), the device ID is bound to this machine from now on.
    public func saveSyncEnrolment(_ enrolment: SyncEnrolment, machineBinding: String? = nil) throws(StoreError) {
        try write { db in
            if let existing = try self.enrolment(db) {
                throw StoreError.invalidValue("this device is already enrolled with \(existing.collectorURL) as '\(existing.deviceName)'; run `chronoception sync remove` first to change collectors.")
            }
            try db.execute(sql: """
                INSERT INTO sync_enrolment (singleton, collector_url, device_key, collector_id, device_name, enrolled_unix_ns)
                VALUES (1, ?, ?, ?, ?, ?)
                """, arguments: [enrolment.collectorURL, enrolment.deviceKey, enrolment.collectorID, enrolment.deviceName,
                                 enrolment.enrolledUnixNanoseconds])
            try db.execute(sql: "UPDATE sync_device SET cursor = 0")
            if let machineBinding {
                try db.execute(sql: "UPDATE sync_device SET machine_binding = ?", arguments: [machineBinding])
            }
            try db.execute(sql: "DELETE FROM sync_status")
        }
    }

    /// Forgets the collector (its key, status and cursor); the sessions and the outbox stay, so a
    /// later enrolment sends them all. Returns the collector removed, if there was one.
    @discardableResult
    public func removeSyncEnrolment() throws(StoreError) -> SyncEnrolment? {
        try write { db in
            let existing = try enrolment(db)
            try db.execute(sql: "DELETE FROM sync_enrolment")
            try db.execute(sql: "DELETE FROM sync_status")
            try db.execute(sql: "UPDATE sync_device SET cursor = 0")
            return existing
        }
    }

    /// Everything `sync status` shows.
    public func syncState() throws(StoreError) -> SyncState {
        try read { db in
            let device = try Row.fetchOne(db, sql: "SELECT device_id, cursor FROM sync_device")
            let cursor: Int64 = device?["cursor"] ?? 0
            let pending = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_outbox WHERE position > ?", arguments: [cursor]) ?? 0
            let status = try Row.fetchOne(db, sql: "SELECT * FROM sync_status")
            // Nullable columns, read as optionals (a missing row reads as all NULL).
            func column<Value: DatabaseValueConvertible>(_ name: String) -> Value? {
                guard let status else { return nil }
                return status[name] as Value?
            }
            return SyncState(deviceID: device?["device_id"] ?? "", enrolment: try enrolment(db), cursor: cursor, pending: pending,
                             lastSuccessUnixNanoseconds: column("last_success_unix_ns"),
                             lastAttemptUnixNanoseconds: column("last_attempt_unix_ns"),
                             consecutiveFailures: column("consecutive_failures") ?? 0,
                             lastFailureCode: column("last_failure_code"), lastFailureMessage: column("last_failure_message"),
                             preferenceProblem: column("preference_problem"))
        }
    }

    /// Records a failed attempt (nothing moves: the same batch is sent again next time).
    public func recordSyncFailure(code: String, message: String, nowUnixNanoseconds: Int64) throws(StoreError) {
        try write { db in
            try db.execute(sql: """
                INSERT INTO sync_status (singleton, last_attempt_unix_ns, consecutive_failures, last_failure_code, last_failure_message)
                VALUES (1, ?, 1, ?, ?)
                ON CONFLICT (singleton) DO UPDATE SET last_attempt_unix_ns = excluded.last_attempt_unix_ns,
                    consecutive_failures = sync_status.consecutive_failures + 1,
                    last_failure_code = excluded.last_failure_code, last_failure_message = excluded.last_failure_message
                """, arguments: [nowUnixNanoseconds, code, message])
        }
    }
}
