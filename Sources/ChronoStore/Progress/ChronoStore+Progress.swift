import ChronoCore
import ChronoSync
import GRDB

extension ChronoStore {
    /// How many intervals `progress` shows when not narrowed to one (ChronoSync's, shared with the collector).
    public static let progressIntervalCount = ProgressLimits.intervalCount
    /// How many sessions the recent list of `progress` shows (ChronoSync's, shared with the collector).
    public static let progressRecentCount = ProgressLimits.recentCount

    /// Gathers what `chronoception progress` shows, in one read snapshot, and hands it to the one
    /// computation (`ProgressReport.of`, the collector's too). The queries read only the sessions a
    /// figure can use — the shown intervals' last 14 days, their newest sessions up to a zones strip of
    /// attempts, the last 28 days, the recent list, the withheld ones — through indexes, and all-time
    /// counts and preset uses come from totals kept by triggers, so the time does not grow with years of
    /// history.
    ///
    /// A study session whose results are withheld now (`withheldResultSessionIDs`, the one rule) counts
    /// as a completed session, but none of its results enters a figure; its recent line has no result,
    /// and the report says how many sessions are withheld.
    public func progress(nowUnixNanoseconds now: Int64, utcOffsetSeconds: Int, only: TrainingInterval? = nil) throws(StoreError) -> ProgressReport {
        let input = try progressInput(nowUnixNanoseconds: now, only: only)
        return ProgressReport.of(input, nowUnixNanoseconds: now, utcOffsetSeconds: utcOffsetSeconds, only: only)
    }

    /// The input of `progress`: the kept totals and the sessions `ProgressReport.of` reads.
    public func progressInput(nowUnixNanoseconds now: Int64, only: TrainingInterval? = nil) throws(StoreError) -> ProgressInput {
        let withheld = try withheldResultSessionIDs(nowUnixNanoseconds: now)
        let withheldList = Self.idList(withheld)
        return try read { db in
            let window = ProgressReport.windowSeconds * 1_000_000_000
            let presets = try rankedPresets(db, now: now / 1_000_000_000)
            var tallies: [ProgressInput.Tally] = []
            // The all-time counts come from the totals the triggers keep (`ProgressTallySchema`).
            for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT target_interval_ms, status, mode, sessions FROM session_tally")) {
                guard let mode = SessionMode(rawValue: row[2]) else { continue }
                tallies.append(ProgressInput.Tally(interval: try Self.interval(milliseconds: row[0], at: "table session_tally"), status: row[1], mode: mode, sessions: row[3]))
            }
            var sessions: [String: ProgressSession] = [:]
            func add(_ statement: Statement, _ arguments: StatementArguments, withAttempts: Bool = false, until attemptLimit: Int? = nil) throws {
                let rows = try Row.fetchCursor(statement, arguments: arguments)
                var attempts = 0
                while let row = try rows.next() {
                    var session = try progressSession(row, withheld: withheld)
                    if withAttempts { session.attempts = try attemptErrors(db, session) }
                    if let known = sessions[session.id], known.attempts != nil { session.attempts = known.attempts }
                    sessions[session.id] = session
                    attempts += session.errors.attemptCount
                    if let attemptLimit, attempts >= attemptLimit { break }
                }
            }
            for interval in ProgressReport.shownIntervals(presets: presets, tallies: tallies, only: only) {
                let milliseconds = interval.span.milliseconds
                try add(db.cachedStatement(sql: Self.progressSessionSQL + """
                     WHERE s.target_interval_ms = ? AND s.status = 'completed' AND s.started_unix_ns >= ? AND s.attempt_count > 0
                    """), [milliseconds, now - 2 * window])
                // The newest sessions whose attempts fill the zones strip, with their attempts.
                try add(db.cachedStatement(sql: Self.progressSessionSQL + """
                     WHERE s.target_interval_ms = ? AND s.status = 'completed' AND s.attempt_count > 0
                    AND s.id NOT IN (SELECT value FROM json_each(?)) ORDER BY s.started_unix_ns DESC, s.id DESC
                    """), [milliseconds, withheldList], withAttempts: true, until: ZoneStrip.length)
                // H(I): the newest completed session's.
                try add(db.cachedStatement(sql: Self.progressSessionSQL + """
                     WHERE s.target_interval_ms = ? AND s.status = 'completed' ORDER BY s.started_unix_ns DESC, s.id DESC LIMIT 1
                    """), [milliseconds])
            }
            let onlyFilter = only == nil ? "" : " AND s.target_interval_ms = \(only!.span.milliseconds)"
            // `+status` keeps SQLite on the start-time index: without statistics it would otherwise pick the
            // status index and walk every completed session ever stored.
            try add(Self.statement(db, Self.progressSessionSQL + """
                 WHERE s.started_unix_ns >= ? AND +s.status = 'completed' AND s.attempt_count > 0\(onlyFilter)
                """, keep: only == nil), [now - Int64(ProgressReport.overallDays + 1) * 86_400_000_000_000])
            try add(Self.statement(db, Self.progressSessionSQL + """
                 WHERE 1\(onlyFilter) ORDER BY s.started_unix_ns DESC, s.id DESC LIMIT \(ProgressReport.recentSessionCount)
                """, keep: only == nil), [])
            if !withheld.isEmpty {
                try add(db.cachedStatement(sql: Self.progressSessionSQL + " WHERE s.id IN (SELECT value FROM json_each(?))"), [withheldList])
            }
            return ProgressInput(presets: presets, tallies: tallies, sessions: Array(sessions.values))
        }
    }

    /// The columns of one session as progress reads it (`progressSession`).
    static let progressSessionSQL = """
        SELECT s.id, s.mode, s.target_interval_ms, s.status, s.started_unix_ns, s.utc_offset_seconds, s.planned_count,
            s.done_count, s.time_acuity_score, s.mean_abs_error_seconds, s.mean_signed_error_seconds, s.fear_sound_effective,
            l.state, s.timing_late_ns, s.note, s.interval_pattern, s.attempt_count, s.mean_abs_percent_error
        FROM session s LEFT JOIN health_ledger l ON l.session_id = s.id
        """

    func progressSession(_ row: Row, withheld: Set<String>) throws -> ProgressSession {
        let id: String = row[0]
        try StoredValueCheck.wallClock(row[4], offset: row[5], session: id)
        let count = (row[16] as Int?) ?? 0
        var errors = ErrorAccumulator()
        if count > 0, let meanAbs = row[9] as Double?, let meanPercent = row[17] as Double? {
            errors = ErrorAccumulator(attemptCount: count, absErrorSecondsSum: meanAbs * Double(count), absPercentErrorSum: meanPercent * Double(count))
        }
        let patternText: String = row[15]
        guard let pattern = HapticPattern(notation: patternText), IntervalPatternBook.admits(pattern) else {
            throw StoredValueCheck.OutOfRange(description: "session \(id) holds the interval pattern \(TerminalSafeText.quoted(patternText)), which is not one")
        }
        return ProgressSession(
            id: id, mode: SessionMode(rawValue: row[1]) ?? .challenge, interval: try Self.interval(milliseconds: row[2], at: "session \(id)"),
            status: row[3], startedUnixNanoseconds: row[4], utcOffsetSeconds: row[5], plannedCount: row[6], doneCount: row[7],
            pattern: pattern, errors: errors, timeAcuityScore: row[8], meanAbsErrorSeconds: row[9], meanSignedErrorSeconds: row[10],
            fearSoundEffective: row[11], healthLog: row[12], timingLateness: Self.timingLateness(row[13]), note: try Self.storedNote(row),
            resultsWithheld: withheld.contains(id), attempts: nil)
    }

    /// A session's attempts' errors in attempt order, from their raw marks.
    func attemptErrors(_ db: Database, _ session: ProgressSession) throws -> [ProgressSession.AttemptErrors] {
        let rows = try Row.fetchAll(db.cachedStatement(sql: "SELECT start_mono_ns, tap_mono_ns FROM attempt WHERE session_id = ? ORDER BY attempt_index"),
                                    arguments: [session.id])
        return try rows.map { row in
            try StoredValueCheck.marks([row[0], row[1]], session: session.id)
            return ProgressSession.AttemptErrors(AttemptMeasurement(index: 1, target: session.interval, startMark: MonotonicInstant(nanoseconds: row[0]),
                                                                    tapMark: MonotonicInstant(nanoseconds: row[1])))
        }
    }

    /// Session IDs as a JSON array, for `… IN (SELECT value FROM json_each(?))`: one cached statement
    /// whatever the number of IDs.
    static func idList(_ ids: Set<String>) -> String {
        JSONValue.array(ids.sorted().map { .string($0) }).compactText
    }

    /// The most recent sessions of every status, newest first (`chronoception sessions`); a session whose
    /// results are withheld now has none (`withheldResultSessionIDs`).
    public func recentSessions(limit: Int, nowUnixNanoseconds now: Int64 = LocalTimeZone.nowUnixNanoseconds()) throws(StoreError) -> [ProgressReport.SessionLine] {
        let withheld = try withheldResultSessionIDs(nowUnixNanoseconds: now)
        return try read { db in try sessionLines(db, limit: limit, only: nil, withheld: withheld) }
    }

    func sessionLines(_ db: Database, limit: Int, only: TrainingInterval?, withheld: Set<String>) throws -> [ProgressReport.SessionLine] {
        let rows = try Row.fetchAll(Self.statement(db, Self.progressSessionSQL + """
            \(only == nil ? "" : " WHERE s.target_interval_ms = \(only!.span.milliseconds)")
             ORDER BY s.started_unix_ns DESC, s.id DESC LIMIT ?
            """, keep: only == nil), arguments: [limit])
        return try rows.map { try progressSession($0, withheld: withheld).line }
    }

    /// A stored timing flag; a value no stall can produce (not positive) is read as no flag.
    static func timingLateness(_ nanoseconds: Int64?) -> TimeSpan? {
        nanoseconds.flatMap { $0 > 0 ? TimeSpan(nanoseconds: $0) : nil }
    }

    /// A prepared statement, kept in the connection's cache when `keep` (fixed SQL read on every
    /// request: no parsing again); SQL that names one interval is prepared each time, so the cache
    /// cannot grow with every interval a client asks about.
    static func statement(_ db: Database, _ sql: String, keep: Bool) throws -> Statement {
        keep ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
    }
}
