import ChronoCore
import GRDB

extension ChronoStore {
    /// Whether the kernel's wall clock is synchronised now: what the store records for a session whose
    /// start does not say.
    public var isWallClockSynchronised: Bool { kernelClock.isSynchronised() }

    /// Keeps a `running` row for a session that has just started (SPEC: durability). Also counts as a
    /// use of the interval for frecency. A repeated call for the same session changes nothing.
    /// `writer` is the process running the session (a `running` row whose writer is gone is recovered).
    public func recordSessionStarted(_ start: SessionStartRecord, writer: ProcessIdentity = .current) throws(StoreError) {
        let synchronised = start.wallClockSynchronised ?? kernelClock.isSynchronised()
        let study = try Self.checked(start.study)
        try write { db in
            try insertSessionRow(db, id: start.sessionID, configuration: start.configuration,
                                 startedAt: start.anchor.monotonic, anchor: start.anchor, board: start.board,
                                 soundAudible: start.soundAudible, synchronised: synchronised, writer: writer)
            if let study { try writeStudyTag(db, sessionID: start.sessionID, tag: study) }
            try insertPresetUse(db, sessionID: start.sessionID, interval: start.configuration.interval,
                                usedUnixSeconds: start.anchor.unixNanoseconds / 1_000_000_000)
        }
    }

    /// Saves a finished session — its row, attempts with their raw marks, Passive boundaries (due and
    /// fired), its preset use and its health-ledger line — in one transaction, then writes its health
    /// record when one is due. The session is safe on disk before the health log is touched, so a
    /// failing log never loses it. Saving a session that is already finished again changes nothing.
    ///
    /// The health decision is made here, once, from the session in hand (`healthDecision`), and handed
    /// on: the ledger line is written from it, and the record goes to the log as it is — the rows just
    /// written are not read back. Only a session anchored while the wall clock was not synchronised
    /// takes the reading path (`deliverReadingBack`), whose times may need correcting (SPEC §4).
    @discardableResult
    public func recordSessionFinished(_ finish: SessionFinishRecord, writer: ProcessIdentity = .current,
                                      nowUnixNanoseconds: Int64) throws(StoreError) -> SessionSaveResult {
        let finish = try Self.checked(finish)
        if finish.outcome.recordsNothing {
            try write { db in try forgetUnstartedSession(db, finish.sessionID) }
            return SessionSaveResult(stored: false, health: .skipped(reason: Self.nothingRecordedReason))
        }
        let decision = finish.healthDecision
        let saved = try write { db in
            try saveFinished(db, finish, writer: writer, decision: decision, now: nowUnixNanoseconds)
        }
        guard let saved else {
            return SessionSaveResult(stored: false, health: try ledgerDelivery(finish.sessionID))
        }
        let health: HealthDelivery
        switch decision {
        case .none(let reason):
            // Not eligible: the ledger already says why.
            health = .skipped(reason: reason)
        case .record(let decided):
            let settings = try settings()
            // Whether the results are withheld was decided once, as the session ended
            // (`SessionFinishRecord.resultsWithheld`, `ResultsWithholding`), and is in `decided` already.
            let record = decided
            if saved.wallClockSynchronised || !settings.wallClockCheck {
                health = try deliverHealthRecord(record, settings: settings, nowUnixNanoseconds: nowUnixNanoseconds)
            } else {
                health = try deliverReadingBack(sessionID: finish.sessionID, nowUnixNanoseconds: nowUnixNanoseconds)
            }
        }
        // A finished session is also the moment to release records held for an unsynchronised clock.
        _ = try? flushHeldRecords(nowUnixNanoseconds: nowUnixNanoseconds)
        return SessionSaveResult(stored: true, health: health)
    }

    /// Why a session that ended before anything happened has no row and no health record.
    public static let nothingRecordedReason = "The session ended before its first attempt or boundary; nothing of it is kept."

    /// Removes what the start of a session that recorded nothing wrote (`SessionOutcome.recordsNothing`):
    /// its `running` row, with its preset use, study tag and ledger line, so it is in no list and
    /// raises no preset's use count. A finished row is never removed here.
    private func forgetUnstartedSession(_ db: Database, _ sessionID: String) throws {
        guard try String.fetchOne(db, sql: "SELECT status FROM session WHERE id = ?", arguments: [sessionID]) == "running" else { return }
        for table in ["preset_use", "session_study", "health_ledger", "sync_outbox", "attempt", "passive_boundary"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE session_id = ?", arguments: [sessionID])
        }
        try db.execute(sql: "DELETE FROM session WHERE id = ? AND status = 'running'", arguments: [sessionID])
    }

    /// Stores many finished sessions of the past in one transaction, without touching the health log
    /// (their ledger says so): for benchmarks and for importing history. Sessions already stored are
    /// left as they are, and one that recorded nothing (`SessionOutcome.recordsNothing`) is not added.
    /// Returns how many were added.
    @discardableResult
    public func importFinishedSessions(_ finishes: [SessionFinishRecord], nowUnixNanoseconds now: Int64) throws(StoreError) -> Int {
        var checked: [SessionFinishRecord] = []
        checked.reserveCapacity(finishes.count)
        for finish in finishes { checked.append(try Self.checked(finish)) }
        let finishes = checked
        return try write { db in
            var added = 0
            for finish in finishes where !finish.outcome.recordsNothing {
                let decision: HealthRecordBuilder.Decision = finish.outcome.status == .completed
                    ? .none(reason: "Imported in bulk; not sent to the health log.")
                    : finish.healthDecision
                if try saveFinished(db, finish, writer: .current, decision: decision, now: now) != nil { added += 1 }
            }
            return added
        }
    }

    /// `finish` with its id canonical, when it satisfies the core's session rules (the same `import`
    /// and a collector apply, so the outbox only ever holds sessions a collector accepts).
    static func checked(_ finish: SessionFinishRecord) throws(StoreError) -> SessionFinishRecord {
        var validated: SessionFinishRecord
        do { validated = try SessionValidation.validated(finish) } catch {
            throw .invalidValue("The store refused a finished session: \(error.description).")
        }
        validated.study = try checked(finish.study)
        return validated
    }

    /// What the finishing transaction learnt about a session it saved.
    struct SavedFinish {
        /// Whether the session's anchor was taken with the wall clock synchronised (as its `running`
        /// row recorded at the start, or as the finish says when no start was recorded).
        var wallClockSynchronised: Bool
    }

    /// The finishing transaction's body: the row (inserted when no start was recorded), attempts,
    /// boundaries, preset use and ledger line. Nil when the session was already finished.
    private func saveFinished(_ db: Database, _ finish: SessionFinishRecord, writer: ProcessIdentity,
                              decision: HealthRecordBuilder.Decision, now: Int64) throws -> SavedFinish? {
        let outcome = finish.outcome
        let existing = try Row.fetchOne(db, sql: "SELECT status, wall_clock_synchronised FROM session WHERE id = ?",
                                        arguments: [finish.sessionID])
        if let existing, existing["status"] as String != "running" { return nil }
        let synchronised: Bool
        if let existing {
            synchronised = existing["wall_clock_synchronised"]
        } else {
            synchronised = finish.wallClockSynchronised ?? kernelClock.isSynchronised()
            try insertSessionRow(db, id: finish.sessionID, configuration: outcome.configuration,
                                 startedAt: outcome.startedAt, anchor: finish.anchor, board: finish.board,
                                 soundAudible: finish.assumedSoundAudibleAtStart,
                                 synchronised: synchronised, writer: writer)
            try insertPresetUse(db, sessionID: finish.sessionID, interval: outcome.configuration.interval,
                                usedUnixSeconds: finish.anchor.unixNanoseconds(at: outcome.startedAt) / 1_000_000_000)
        }
        // A tag written with the start stays as it was (the same session, the same tag).
        if let study = finish.study { try writeStudyTag(db, sessionID: finish.sessionID, tag: study) }
        try completeSessionRow(db, finish: finish)
        try addToOutbox(db, sessionID: finish.sessionID)
        switch decision {
        case .none(let reason):
            try setLedger(db, sessionID: finish.sessionID, state: .skipped, code: "not_eligible", reason: reason, now: now)
        case .record:
            try setLedger(db, sessionID: finish.sessionID, state: .owed, code: "pending", reason: "Being written.", now: now)
        }
        return SavedFinish(wallClockSynchronised: synchronised)
    }

    /// Marks every `running` session whose writer is gone (crash, power loss, kill) as interrupted and
    /// returns their ids; the caller prints "Previous session ended unexpectedly." when any were found.
    /// Sessions still running in a live process (the daemon) are left alone.
    public func recoverInterruptedSessions(nowUnixNanoseconds: Int64) throws(StoreError) -> [String] {
        try write { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, boot_id, writer_pid, writer_start_ticks FROM session WHERE status = 'running'")
            var recovered: [String] = []
            for row in rows {
                let writer = ProcessIdentity(bootID: row["boot_id"], pid: row["writer_pid"], startTicks: row["writer_start_ticks"])
                if writerIsAlive(writer) { continue }
                let id: String = row["id"]
                try db.execute(sql: """
                    UPDATE session SET status = 'interrupted',
                        reason = 'The program stopped before the session ended (crash, power loss or kill).'
                    WHERE id = ?
                    """, arguments: [id])
                try setLedger(db, sessionID: id, state: .skipped, code: "not_eligible",
                              reason: "The session was interrupted; interrupted sessions are never logged.", now: nowUnixNanoseconds)
                try addToOutbox(db, sessionID: id)
                recovered.append(id)
            }
            return recovered
        }
    }

    // MARK: Rows

    /// The start's row, unless the session already has one (the same session started again).
    private func insertSessionRow(
        _ db: Database, id: String, configuration: SessionConfiguration, startedAt: MonotonicInstant,
        anchor: WallClockAnchor, board: String, soundAudible: Bool, synchronised: Bool, writer: ProcessIdentity
    ) throws {
        guard try !SessionStartRow.exists(db, key: id) else { return }
        try SessionStartRow(id: id, configuration: configuration, startedAt: startedAt, anchor: anchor, board: board,
                            soundAudible: soundAudible, synchronised: synchronised, writer: writer).insert(db)
    }

    private func completeSessionRow(_ db: Database, finish: SessionFinishRecord) throws {
        let outcome = finish.outcome
        try SessionFinishRow(finish).update(db)
        for attempt in outcome.attempts {
            try AttemptRow(sessionID: finish.sessionID, attempt).insert(db, onConflict: .replace)
        }
        for (position, boundary) in outcome.boundaries.enumerated() {
            let fired = position < finish.boundariesFired.count ? finish.boundariesFired[position] : nil
            try PassiveBoundaryRow(sessionID: finish.sessionID, boundary, fired: fired).insert(db, onConflict: .replace)
        }
    }

    private func insertPresetUse(_ db: Database, sessionID: String, interval: TrainingInterval, usedUnixSeconds: Int64) throws {
        try db.cachedStatement(sql: "INSERT INTO preset_use (target_interval_ms, used_unix_seconds, session_id) VALUES (?, ?, ?) ON CONFLICT (session_id) DO NOTHING")
            .execute(arguments: [interval.span.milliseconds, usedUnixSeconds, sessionID])
    }

    func setLedger(_ db: Database, sessionID: String, state: HealthLedgerEntry.State, code: String?, reason: String?,
                   now: Int64, written: Bool = false) throws {
        try db.cachedStatement(sql: """
            INSERT INTO health_ledger (session_id, state, reason_code, reason, updated_unix_ns, written_unix_ns)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (session_id) DO UPDATE SET state = excluded.state, reason_code = excluded.reason_code,
                reason = excluded.reason, updated_unix_ns = excluded.updated_unix_ns,
                written_unix_ns = COALESCE(excluded.written_unix_ns, health_ledger.written_unix_ns)
            """).execute(arguments: [sessionID, state.rawValue, code, reason, now, written ? now : nil])
    }

    func ledgerDelivery(_ sessionID: String) throws(StoreError) -> HealthDelivery {
        let row = try read { db in
            try Row.fetchOne(db, sql: "SELECT state, reason_code, reason FROM health_ledger WHERE session_id = ?", arguments: [sessionID])
        }
        let reason: String = row?["reason"] ?? ""
        switch row?["state"] as String? {
        case "written": return .written
        case "skipped": return .skipped(reason: reason)
        default: return .owed(code: row?["reason_code"] ?? "pending", reason: reason)
        }
    }
}
