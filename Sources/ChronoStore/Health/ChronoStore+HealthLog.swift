import ChronoCore
import GRDB

/// The health-log side of the store (SPEC §4) that reads sessions back: report the status, backfill
/// what is owed, release what was held for the clock, export. A session being saved hands its record
/// on in memory instead (`ChronoStore+HealthDelivery.swift`).
extension ChronoStore {
    /// The clock as the `wall-clock-check` setting wants it seen.
    func effectiveClock(_ settings: StoreSettings) -> any WallClockStatus {
        settings.wallClockCheck ? kernelClock : TrustedWallClockStatus(base: kernelClock)
    }

    /// Writes the records held back for an unsynchronised clock, once the clock is synchronised and
    /// logging is on. Returns how many were written.
    @discardableResult
    public func flushHeldRecords(nowUnixNanoseconds now: Int64) throws(StoreError) -> Int {
        let settings = try settings()
        guard settings.healthStatus == "on", effectiveClock(settings).isSynchronised() else { return 0 }
        let held = try read { db in
            try String.fetchAll(db, sql: "SELECT session_id FROM health_ledger WHERE state = 'owed' AND reason_code = 'clock_unsynchronised'")
        }
        guard !held.isEmpty else { return 0 }
        return try backfill(sessionIDs: held, settings: settings, now: now).written
    }

    /// Writes the records owed because the process that finished their sessions died between the
    /// session's commit and the log append (ledger `pending`, writer gone), exactly once: the log's
    /// sync identifiers are read first. Run at the start of every session command and the daemon, so
    /// such a record waits for nobody's `health backfill`. Nothing happens while logging is off or
    /// failing (those records stay owed for `health backfill`). Returns how many were appended.
    @discardableResult
    public func deliverOrphanedRecords(nowUnixNanoseconds now: Int64) throws(StoreError) -> Int {
        let settings = try settings()
        guard settings.healthStatus == "on" else { return 0 }
        let rows = try read { db in
            try Row.fetchAll(db, sql: """
                SELECT l.session_id, s.boot_id, s.writer_pid, s.writer_start_ticks
                FROM health_ledger l JOIN session s ON s.id = l.session_id
                WHERE l.state = 'owed' AND l.reason_code = 'pending' ORDER BY s.started_unix_ns, s.id
                """)
        }
        let orphaned = rows.filter { row in
            !writerIsAlive(ProcessIdentity(bootID: row["boot_id"], pid: row["writer_pid"], startTicks: row["writer_start_ticks"]))
        }.map { $0["session_id"] as String }
        return try backfill(sessionIDs: orphaned, settings: settings, now: now).written
    }

    /// What `chronoception health backfill` did.
    public struct BackfillReport: Hashable, Sendable {
        /// Appended to the log now.
        public var written = 0
        /// Already in the log (found by `HKMetadataKeySyncIdentifier`), now marked written.
        public var alreadyInLog = 0
        /// Still held back for the wall clock.
        public var held = 0
        /// Found not to be due after all (e.g. times that cannot be corrected).
        public var skipped = 0
        /// Set when writing failed; logging is then failing again.
        public var failure: String?
    }

    /// Writes every owed record exactly once, oldest first. Idempotent by session UUID: records
    /// already in the log file are not written again.
    public func backfill(nowUnixNanoseconds now: Int64) throws(StoreError) -> BackfillReport {
        let settings = try settings()
        guard settings.healthLoggingEnabled else {
            throw .invalidValue("Health logging is off. Turn it on with `chronoception health enable`, then run `chronoception health backfill`.")
        }
        if let failure = settings.healthFailure {
            throw .invalidValue("Health logging is failing (\(failure)). Fix the cause, run `chronoception health enable`, then `chronoception health backfill`.")
        }
        let owed = try read { db in
            try String.fetchAll(db, sql: """
                SELECT l.session_id FROM health_ledger l JOIN session s ON s.id = l.session_id
                WHERE l.state = 'owed' ORDER BY s.started_unix_ns, s.id
                """)
        }
        return try backfill(sessionIDs: owed, settings: settings, now: now)
    }

    private func backfill(sessionIDs: [String], settings: StoreSettings, now: Int64) throws(StoreError) -> BackfillReport {
        var report = BackfillReport()
        guard !sessionIDs.isEmpty else { return report }
        let target = healthLogTarget(settings.healthLogPath)
        let clock = effectiveClock(settings)
        let withheld = try withheldResultSessionIDs(nowUnixNanoseconds: now)
        let present: Set<String>
        do {
            present = try target.existingSyncIdentifiers()
        } catch {
            report.failure = error.reason
            _ = try write { db in try recordHealthFailure(error.reason, db, nowUnixSeconds: now / 1_000_000_000) }
            return report
        }
        for id in sessionIDs {
            let session = try session(id: id)
            switch HealthRecordAvailability.of(session, clock: clock, checkClock: settings.wallClockCheck,
                                               resultsWithheld: withheld.contains(id)) {
            case .never(let reason):
                try write { db in try setLedger(db, sessionID: id, state: .skipped, code: "not_eligible", reason: reason, now: now) }
                report.skipped += 1
            case .held(let reason):
                try write { db in try setLedger(db, sessionID: id, state: .owed, code: "clock_unsynchronised", reason: reason, now: now) }
                report.held += 1
            case .record(let record):
                if present.contains(id) {
                    report.alreadyInLog += 1
                } else {
                    do {
                        try target.append(line: record.jsonLine)
                    } catch {
                        report.failure = error.reason
                        try write { db in
                            try setLedger(db, sessionID: id, state: .owed, code: "write_failed", reason: "Writing failed: \(error.reason)", now: now)
                            _ = try recordHealthFailure(error.reason, db, nowUnixSeconds: now / 1_000_000_000)
                        }
                        return report
                    }
                    report.written += 1
                }
                try write { db in try setLedger(db, sessionID: id, state: .written, code: nil, reason: nil, now: now, written: true) }
            }
        }
        return report
    }

    /// The health log as `chronoception health status` shows it.
    public struct HealthLogStatus: Hashable, Sendable {
        /// `on`, `off` or `failing: <reason>`.
        public var status: String
        public var path: String
        public var written: Int
        public var skipped: Int
        /// Owed records by reason code.
        public var owed: [String: Int]
        public var clockSynchronised: Bool
        public var wallClockCheck: Bool
        public var owedTotal: Int { owed.values.reduce(0, +) }
    }

    public func healthLogStatus() throws(StoreError) -> HealthLogStatus {
        let settings = try settings()
        let counts = try read { db in
            try Row.fetchAll(db, sql: "SELECT state, COALESCE(reason_code, ''), COUNT(*) FROM health_ledger GROUP BY state, reason_code")
        }
        var status = HealthLogStatus(status: settings.healthStatus, path: settings.healthLogPath, written: 0, skipped: 0, owed: [:],
                                     clockSynchronised: kernelClock.isSynchronised(), wallClockCheck: settings.wallClockCheck)
        for row in counts {
            let state: String = row[0]
            let count: Int = row[2]
            switch state {
            case "written": status.written += count
            case "skipped": status.skipped += count
            default: status.owed[row[1], default: 0] += count
            }
        }
        return status
    }

    /// Health records of every completed session whose record can be built now (for export; the
    /// ledger is not changed), oldest first.
    public func healthRecords(sinceUnixNanoseconds since: Int64? = nil,
                              nowUnixNanoseconds now: Int64 = LocalTimeZone.nowUnixNanoseconds()) throws(StoreError) -> [HealthRecord] {
        let settings = try settings()
        let clock = effectiveClock(settings)
        let sessions = try read { db in
            try loadSessions(db, filter: since == nil ? "s.status = 'completed'" : "s.status = 'completed' AND s.started_unix_ns >= ?",
                             arguments: since.map { [$0] } ?? [])
        }
        // A session whose results are withheld now is exported without them (`withheldResultSessionIDs`).
        let withheld = try withheldResultSessionIDs(nowUnixNanoseconds: now)
        return sessions.compactMap { session in
            if case .record(let record) = HealthRecordAvailability.of(session, clock: clock, checkClock: settings.wallClockCheck,
                                                                       resultsWithheld: withheld.contains(session.sessionID)) {
                return record
            }
            return nil
        }
    }
}
