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
        var attempts: [String: [AttemptRow]] = [:]
        let attemptRows = try AttemptRow.fetchCursor(db, sql: """
            SELECT a.* FROM attempt a WHERE a.session_id IN (SELECT s.id FROM session s WHERE \(filter))
            """, arguments: arguments)
        while let attempt = try attemptRows.next() { attempts[attempt.sessionID, default: []].append(attempt) }
        var boundaries: [String: [PassiveBoundaryRow]] = [:]
        let boundaryRows = try PassiveBoundaryRow.fetchCursor(db, sql: """
            SELECT b.* FROM passive_boundary b WHERE b.session_id IN (SELECT s.id FROM session s WHERE \(filter))
            """, arguments: arguments)
        while let boundary = try boundaryRows.next() { boundaries[boundary.sessionID, default: []].append(boundary) }
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

    static func storedSession(_ row: Row, attempts: [AttemptRow], boundaries: [PassiveBoundaryRow]) throws -> StoredSession {
        // Numbers from the file are input like any other: a row edited or damaged into times nothing
        // can compute with is reported as damage instead of trapping in the arithmetic below.
        let ended: Int64 = (row["ended_mono_ns"] as Int64?) ?? 0
        var marks: [Int64] = [row["started_mono_ns"] as Int64, ended, row["anchor_mono_ns"] as Int64]
        for attempt in attempts { marks += attempt.marks }
        for boundary in boundaries { marks += boundary.marks }
        let timingLate: Int64? = row["timing_late_ns"]
        marks.append(timingLate ?? 0)
        try StoredValueCheck.marks(marks, session: row["id"])
        try StoredValueCheck.wallClock(row["anchor_unix_ns"], offset: row["utc_offset_seconds"], session: row["id"])
        let configuration = try configuration(row)
        let status: String = row["status"]
        let startedAt = MonotonicInstant(nanoseconds: row["started_mono_ns"])
        let sortedAttempts = attempts.sorted { $0.index < $1.index }.map { $0.measurement(target: configuration.interval) }
        let sortedBoundaries = boundaries.sorted { $0.index < $1.index }
        let endedNanoseconds: Int64? = row["ended_mono_ns"]
        let outcome = SessionOutcome(
            status: SessionStatus(rawValue: status) ?? .interrupted,
            configuration: configuration,
            startedAt: startedAt,
            endedAt: endedNanoseconds.map(MonotonicInstant.init(nanoseconds:)) ?? startedAt,
            attempts: sortedAttempts,
            boundaries: sortedBoundaries.map(\.boundary),
            fearSoundEffective: (row["fear_sound_effective"] as Bool?) ?? false,
            // Versions before the reason's character rule kept an error's text as it was (a newline
            // included): such a reason reads with those characters escaped, as the engine keeps it now.
            reason: (row["reason"] as String?).map(SessionValidation.keepableReason),
            timingLateness: Self.timingLateness(timingLate))
        let sessionID: String = row["id"]
        let anchor = WallClockAnchor(unixNanoseconds: row["anchor_unix_ns"], monotonic: MonotonicInstant(nanoseconds: row["anchor_mono_ns"]),
                                     utcOffsetSeconds: row["utc_offset_seconds"])
        let board: String = row["board"]
        let fired = sortedBoundaries.map(\.fired)
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

    /// Rebuilds the configuration a session ran with from its row. A value no session could hold (an
    /// interval, pattern or timing damaged or edited since the save) is reported as damage that names
    /// the session, as every other reader refuses it, never replaced by a default.
    static func configuration(_ row: Row) throws -> SessionConfiguration {
        let id: String = row["id"]
        let mode = SessionMode(rawValue: row["mode"]) ?? .challenge
        let patternText: String = row["interval_pattern"]
        guard let pattern = HapticPattern(notation: patternText) else {
            throw StoredValueCheck.OutOfRange(description: "session \(id) holds the interval pattern \(TerminalSafeText.quoted(patternText)), which is not one")
        }
        let timings = try ["feedback_ms", "abort_window_ms", "debounce_ms", "long_press_ms"].map { name -> Int64 in
            let value: Int64 = row[name]
            if let problem = SessionValidation.timingProblem(name, milliseconds: value) {
                throw StoredValueCheck.OutOfRange(description: "session \(id) holds \(problem)")
            }
            return value
        }
        do {
            return try SessionConfiguration(
                mode: mode,
                interval: interval(milliseconds: row["target_interval_ms"], at: "session \(id)"),
                plannedCount: row["planned_count"],
                fearThreshold: row["fear_threshold_percent"],
                intervalPattern: pattern,
                timing: SessionTiming(feedbackDuration: .milliseconds(timings[0]), abortConfirmWindow: .milliseconds(timings[1]),
                                      autoStartNextAttempt: row["auto_start_next_attempt"]),
                gestures: GestureSettings(debounce: .milliseconds(timings[2]), longPress: .milliseconds(timings[3])))
        } catch let error as ConfigurationError {
            throw StoredValueCheck.OutOfRange(description: "session \(id) holds a configuration no session can have: \(error)")
        }
    }

    /// The interval a stored `target_interval_ms` names (`SessionValidation.interval(milliseconds:)`),
    /// or damage naming where it was read (`"session <id>"`, or a table).
    static func interval(milliseconds: Int64, at place: String) throws(StoredValueCheck.OutOfRange) -> TrainingInterval {
        guard let interval = SessionValidation.interval(milliseconds: milliseconds) else {
            throw StoredValueCheck.OutOfRange(description: "\(place) holds a target interval of \(milliseconds) ms, outside \(SessionValidation.intervalMilliseconds.lowerBound)…\(SessionValidation.intervalMilliseconds.upperBound) ms")
        }
        return interval
    }
}
