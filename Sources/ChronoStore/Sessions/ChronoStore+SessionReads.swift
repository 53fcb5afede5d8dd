import ChronoCore
import GRDB

extension ChronoStore {
    /// One session with its attempts, boundaries and ledger line.
    public func session(id: String) throws(StoreError) -> StoredSession {
        let sessions = try read { db in try loadSessions(db, filter: "s.id = ?", arguments: [id]) }
        guard let session = sessions.first else { throw .unknownSession(id) }
        return session
    }

    /// How many sessions the store holds, of every status.
    public func sessionCount() throws(StoreError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session") ?? 0 }
    }

    /// Sessions matching an SQL condition on `session s`, oldest first, complete with attempts and
    /// boundaries (two extra queries in all, not two per session).
    func loadSessions(_ db: Database, filter: String, arguments: StatementArguments) throws -> [StoredSession] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT s.*, l.state AS ledger_state, l.reason_code AS ledger_code, l.reason AS ledger_reason
            FROM session s LEFT JOIN health_ledger l ON l.session_id = s.id
            WHERE \(filter) ORDER BY s.started_unix_ns, s.id
            """, arguments: arguments)
        guard !rows.isEmpty else { return [] }
        var attempts: [String: [StoredAttemptRow]] = [:]
        let attemptRows = try Row.fetchCursor(db, sql: """
            SELECT a.session_id, a.attempt_index, a.start_mono_ns, a.tap_mono_ns, a.presented_start_mono_ns, a.presented_end_mono_ns FROM attempt a
            WHERE a.session_id IN (SELECT s.id FROM session s WHERE \(filter))
            """, arguments: arguments)
        while let row = try attemptRows.next() {
            attempts[row[0], default: []].append(StoredAttemptRow(index: row[1], start: row[2], tap: row[3], presentedStart: row[4], presentedEnd: row[5]))
        }
        var boundaries: [String: [(Int, Int64, Int64?)]] = [:]
        let boundaryRows = try Row.fetchCursor(db, sql: """
            SELECT b.session_id, b.boundary_index, b.due_mono_ns, b.fired_mono_ns FROM passive_boundary b
            WHERE b.session_id IN (SELECT s.id FROM session s WHERE \(filter))
            """, arguments: arguments)
        while let row = try boundaryRows.next() {
            boundaries[row[0], default: []].append((row[1], row[2], row[3]))
        }
        let tags = try studyTags(db, filter: filter, arguments: arguments)
        return try rows.map { row in
            let id: String = row["id"]
            var stored = try Self.storedSession(row, attempts: attempts[id] ?? [], boundaries: boundaries[id] ?? [])
            stored.study = tags[id]
            // The row keeps the feedback policy in its study tag (a block without feedback is the only
            // source of a withheld one), so the session reads back with the policy it ran with.
            if let tag = tags[id], !tag.feedbackShown { stored.outcome.configuration.feedback = .withheld }
            return stored
        }
    }

    /// One `attempt` row as read: its index, marks and (Reproduction) presented onsets.
    struct StoredAttemptRow {
        var index: Int
        var start: Int64
        var tap: Int64
        var presentedStart: Int64?
        var presentedEnd: Int64?
    }

    static func storedSession(_ row: Row, attempts: [StoredAttemptRow], boundaries: [(Int, Int64, Int64?)]) throws -> StoredSession {
        // Numbers from the file are input like any other: a row edited or damaged into times nothing
        // can compute with is reported as damage instead of trapping in the arithmetic below.
        let ended: Int64 = (row["ended_mono_ns"] as Int64?) ?? 0
        var marks: [Int64] = [row["started_mono_ns"] as Int64, ended, row["anchor_mono_ns"] as Int64]
        for attempt in attempts { marks += [attempt.start, attempt.tap, attempt.presentedStart ?? 0, attempt.presentedEnd ?? 0] }
        for boundary in boundaries { marks += [boundary.1, boundary.2 ?? 0] }
        let timingLate: Int64? = row["timing_late_ns"]
        marks.append(timingLate ?? 0)
        try StoredValueCheck.marks(marks, session: row["id"])
        try StoredValueCheck.wallClock(row["anchor_unix_ns"], offset: row["utc_offset_seconds"], session: row["id"])
        let configuration = try configuration(row)
        let status: String = row["status"]
        let startedAt = MonotonicInstant(nanoseconds: row["started_mono_ns"])
        let sortedAttempts = attempts.sorted { $0.index < $1.index }.map { attempt in
            AttemptMeasurement(index: attempt.index, target: configuration.interval,
                               startMark: MonotonicInstant(nanoseconds: attempt.start), tapMark: MonotonicInstant(nanoseconds: attempt.tap),
                               presentedStart: attempt.presentedStart.map(MonotonicInstant.init(nanoseconds:)),
                               presentedEnd: attempt.presentedEnd.map(MonotonicInstant.init(nanoseconds:)))
        }
        let sortedBoundaries = boundaries.sorted { $0.0 < $1.0 }
        let endedNanoseconds: Int64? = row["ended_mono_ns"]
        let outcome = SessionOutcome(
            status: SessionStatus(rawValue: status) ?? .interrupted,
            configuration: configuration,
            startedAt: startedAt,
            endedAt: endedNanoseconds.map(MonotonicInstant.init(nanoseconds:)) ?? startedAt,
            attempts: sortedAttempts,
            boundaries: sortedBoundaries.map { PassiveBoundary(index: $0.0, due: MonotonicInstant(nanoseconds: $0.1)) },
            fearSoundEffective: (row["fear_sound_effective"] as Bool?) ?? false,
            reason: row["reason"],
            timingLateness: Self.timingLateness(timingLate))
        let sessionID: String = row["id"]
        let anchor = WallClockAnchor(unixNanoseconds: row["anchor_unix_ns"], monotonic: MonotonicInstant(nanoseconds: row["anchor_mono_ns"]),
                                     utcOffsetSeconds: row["utc_offset_seconds"])
        let board: String = row["board"]
        let fired = sortedBoundaries.map { $0.2.map(MonotonicInstant.init(nanoseconds:)) }
        if status != "running" {
            // The same rules the row met when it was saved: a row damaged or edited since is reported
            // as damage, never computed with.
            let record = SessionFinishRecord(sessionID: sessionID, outcome: outcome, anchor: anchor, board: board)
            do { _ = try SessionValidation.validated(record, firings: fired) } catch {
                throw StoredValueCheck.OutOfRange(description: error.description)
            }
        }
        let ledgerState: String? = row["ledger_state"]
        let note = try storedNote(row)
        return StoredSession(
            sessionID: sessionID,
            outcome: outcome,
            isRunning: status == "running",
            anchor: anchor,
            board: board,
            wallClockSynchronised: row["wall_clock_synchronised"],
            bootID: row["boot_id"],
            boundariesFired: fired,
            healthLedger: ledgerState.flatMap(HealthLedgerEntry.State.init(rawValue:)).map {
                HealthLedgerEntry(state: $0, reasonCode: row["ledger_code"], reason: row["ledger_reason"])
            },
            note: note,
            soundAudibleAtStart: (row["sound_audible_at_start"] as Bool?) ?? true)
    }

    /// Rebuilds the configuration a session ran with from its row.
    static func configuration(_ row: Row) throws -> SessionConfiguration {
        let mode = SessionMode(rawValue: row["mode"]) ?? .challenge
        let pattern = HapticPattern(notation: row["interval_pattern"]) ?? IntervalPatternBook.candidates[0]
        return try SessionConfiguration(
            mode: mode,
            interval: interval(milliseconds: row["target_interval_ms"]),
            plannedCount: row["planned_count"],
            fearThreshold: row["fear_threshold_percent"],
            intervalPattern: pattern.isIntervalPattern ? pattern : IntervalPatternBook.candidates[0],
            timing: SessionTiming(feedbackDuration: .milliseconds(row["feedback_ms"]),
                                  abortConfirmWindow: .milliseconds(max(1, row["abort_window_ms"] as Int64)),
                                  autoStartNextAttempt: row["auto_start_next_attempt"]),
            gestures: GestureSettings(debounce: .milliseconds(row["debounce_ms"]), longPress: .milliseconds(row["long_press_ms"])))
    }

    /// Product intervals are whole seconds; anything else was a test-only interval.
    static func interval(milliseconds: Int64) -> TrainingInterval {
        if milliseconds % 1000 == 0, let interval = try? TrainingInterval(seconds: Int(milliseconds / 1000)) {
            return interval
        }
        // A test interval, or a damaged value: kept inside the range intervals have, so no later
        // arithmetic on it can overflow.
        return .testOnly(milliseconds: min(max(milliseconds, 1), Int64(TrainingInterval.maximumSeconds) * 1000))
    }
}
