import ChronoCore
import ChronoSync
import GRDB

extension ChronoStore {
    /// How many intervals `progress` shows when not narrowed to one (ChronoSync's, shared with the collector).
    public static let progressIntervalCount = ProgressLimits.intervalCount
    /// How many sessions the recent list of `progress` shows (ChronoSync's, shared with the collector).
    public static let progressRecentCount = ProgressLimits.recentCount

    /// Gathers everything `chronoception progress` shows, in one read snapshot. The queries touch only
    /// what is shown — the top intervals' last 14 days, their last attempts, the last 28 days — through
    /// indexes, and all-time counts come from totals kept by triggers, so the time does not grow with
    /// years of history.
    ///
    /// A study session whose results are withheld now (`withheldResultSessionIDs`, the one rule) counts
    /// as a completed session, but none of its results enters a figure (typical errors, Time Acuity,
    /// zones, the day-by-day series); its recent line has no result, and the report says how many
    /// sessions are withheld. Such sessions are few (one block's), so the SQL excludes them by a JSON list.
    public func progress(nowUnixNanoseconds now: Int64, utcOffsetSeconds: Int, only: TrainingInterval? = nil) throws(StoreError) -> ProgressReport {
        let withheld = try withheldResultSessionIDs(nowUnixNanoseconds: now)
        let withheldList = Self.idList(withheld)
        return try read { db in
            let today = WallTime(unixNanoseconds: now, utcOffsetSeconds: utcOffsetSeconds).localDayNumber
            let window = ProgressReport.windowSeconds * 1_000_000_000
            let ranked = try rankedPresets(db, now: now / 1_000_000_000)
            let patterns = try Row.fetchAll(db.cachedStatement(sql: "SELECT target_interval_ms, pattern FROM haptic_assignment"))
            var patternByInterval: [Int64: HapticPattern] = [:]
            for row in patterns { patternByInterval[row[0]] = HapticPattern(notation: row[1]) }

            var intervals: [ProgressReport.IntervalProgress] = []
            let candidates = only.map { [$0] } ?? ranked.map(\.interval)
            for interval in candidates where intervals.count < (only == nil ? Self.progressIntervalCount : 1) {
                let milliseconds = interval.span.milliseconds
                let completed = try Int.fetchOne(db.cachedStatement(sql: "SELECT SUM(sessions) FROM session_tally WHERE target_interval_ms = ? AND status = 'completed'"),
                                                 arguments: [milliseconds]) ?? 0
                guard completed > 0 else { continue }
                var lastSeven = ErrorAccumulator(), sevenBefore = ErrorAccumulator()
                var daily: [Int64: ErrorAccumulator] = [:]
                let rows = try Row.fetchCursor(db.cachedStatement(sql: """
                    SELECT started_unix_ns, utc_offset_seconds, attempt_count, mean_abs_error_seconds, mean_abs_percent_error
                    FROM session WHERE target_interval_ms = ? AND status = 'completed' AND started_unix_ns >= ? AND attempt_count > 0
                    AND id NOT IN (SELECT value FROM json_each(?))
                    """), arguments: [milliseconds, now - 2 * window, withheldList])
                while let row = try rows.next() {
                    let started: Int64 = row[0]
                    try StoredValueCheck.wallClock(started, offset: row[1], session: "in progress data")
                    let errors = ErrorAccumulator(attemptCount: row[2], absErrorSecondsSum: (row[3] as Double) * Double(row[2] as Int),
                                                  absPercentErrorSum: (row[4] as Double) * Double(row[2] as Int))
                    if started >= now - window { lastSeven.add(errors) } else { sevenBefore.add(errors) }
                    daily[WallTime(unixNanoseconds: started, utcOffsetSeconds: row[1]).localDayNumber, default: ErrorAccumulator()].add(errors)
                }
                var zones: [ErrorZone] = []
                var lastAttempts = ErrorAccumulator()
                let attemptRows = try Row.fetchAll(db.cachedStatement(sql: """
                    SELECT a.start_mono_ns, a.tap_mono_ns FROM session s JOIN attempt a ON a.session_id = s.id
                    WHERE s.target_interval_ms = ? AND s.status = 'completed' AND s.id NOT IN (SELECT value FROM json_each(?))
                    ORDER BY s.started_unix_ns DESC, s.id DESC, a.attempt_index DESC LIMIT ?
                    """), arguments: [milliseconds, withheldList, ZoneStrip.length])
                for row in attemptRows.reversed() {
                    try StoredValueCheck.marks([row[0], row[1]], session: "in progress data")
                    let attempt = AttemptMeasurement(index: 1, target: interval, startMark: MonotonicInstant(nanoseconds: row[0]),
                                                     tapMark: MonotonicInstant(nanoseconds: row[1]))
                    zones.append(attempt.zone)
                    lastAttempts.add(ErrorAccumulator(attemptCount: 1, absErrorSecondsSum: attempt.absErrorSeconds, absPercentErrorSum: attempt.absPercentError))
                }
                var progress = ProgressReport.IntervalProgress(
                    interval: interval, pattern: patternByInterval[milliseconds], completedSessions: completed,
                    lastSevenDays: lastSeven, sevenDaysBefore: sevenBefore, lastZones: zones, lastAttempts: lastAttempts, daily: daily)
                if !withheld.isEmpty {
                    progress.resultsWithheldSessions = try Int.fetchOne(db.cachedStatement(sql: """
                        SELECT COUNT(*) FROM session WHERE target_interval_ms = ? AND status = 'completed' AND id IN (SELECT value FROM json_each(?))
                        """), arguments: [milliseconds, withheldList]) ?? 0
                }
                intervals.append(progress)
            }

            var completedByMode: [SessionMode: Int] = [:]
            var aborted = 0, interrupted = 0
            let onlyFilter = only == nil ? "" : " WHERE target_interval_ms = \(only!.span.milliseconds)"
            // The all-time counts come from the totals the triggers keep (`ProgressTallySchema`), not
            // from a count of every session stored.
            for row in try Row.fetchAll(Self.statement(db, "SELECT status, mode, SUM(sessions) FROM session_tally\(onlyFilter) GROUP BY status, mode", keep: only == nil)) {
                let status: String = row[0]
                let count: Int = row[2]
                switch status {
                case "completed": if let mode = SessionMode(rawValue: row[1]) { completedByMode[mode, default: 0] += count }
                case "aborted": aborted += count
                case "interrupted": interrupted += count
                default: break
                }
            }

            // `+status` keeps SQLite on the start-time index: without statistics it would otherwise pick the
            // status index and walk every completed session ever stored.
            var overallDaily: [Int64: ErrorAccumulator] = [:]
            let dayRows = try Row.fetchCursor(Self.statement(db, """
                SELECT started_unix_ns, utc_offset_seconds, attempt_count, mean_abs_error_seconds, mean_abs_percent_error
                FROM session WHERE started_unix_ns >= ? AND +status = 'completed' AND attempt_count > 0\(only == nil ? "" : " AND target_interval_ms = \(only!.span.milliseconds)")
                AND id NOT IN (SELECT value FROM json_each(?))
                """, keep: only == nil), arguments: [now - Int64(ProgressReport.overallDays + 1) * 86_400_000_000_000, withheldList])
            while let row = try dayRows.next() {
                try StoredValueCheck.wallClock(row[0], offset: row[1], session: "in progress data")
                let count: Int = row[2]
                overallDaily[WallTime(unixNanoseconds: row[0], utcOffsetSeconds: row[1]).localDayNumber, default: ErrorAccumulator()]
                    .add(ErrorAccumulator(attemptCount: count, absErrorSecondsSum: (row[3] as Double) * Double(count),
                                          absPercentErrorSum: (row[4] as Double) * Double(count)))
            }
            let recent = try sessionLines(db, limit: Self.progressRecentCount, only: only, withheld: withheld)
            var report = ProgressReport(today: today, intervals: intervals, completedByMode: completedByMode, abortedSessions: aborted,
                                        interruptedSessions: interrupted, recentSessions: recent, daily: overallDaily, onlyInterval: only)
            if !withheld.isEmpty {
                report.resultsWithheldSessions = try Int.fetchOne(Self.statement(db, """
                    SELECT COUNT(*) FROM session WHERE status = 'completed' AND id IN (SELECT value FROM json_each(?))\(only == nil ? "" : " AND target_interval_ms = \(only!.span.milliseconds)")
                    """, keep: only == nil), arguments: [withheldList]) ?? 0
            }
            return report
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
        let rows = try Row.fetchAll(Self.statement(db, """
            SELECT s.id, s.mode, s.target_interval_ms, s.status, s.started_unix_ns, s.utc_offset_seconds, s.planned_count,
                s.done_count, s.time_acuity_score, s.mean_abs_error_seconds, s.mean_signed_error_seconds, s.fear_sound_effective,
                l.state, s.timing_late_ns, s.note
            FROM session s LEFT JOIN health_ledger l ON l.session_id = s.id
            \(only == nil ? "" : "WHERE s.target_interval_ms = \(only!.span.milliseconds)")
            ORDER BY s.started_unix_ns DESC, s.id DESC LIMIT ?
            """, keep: only == nil), arguments: [limit])
        return try rows.map { row in
            try StoredValueCheck.wallClock(row[4], offset: row[5], session: row[0])
            let line = ProgressReport.SessionLine(
                sessionID: row[0], mode: SessionMode(rawValue: row[1]) ?? .challenge, interval: Self.interval(milliseconds: row[2]),
                status: row[3], startedAt: WallTime(unixNanoseconds: row[4], utcOffsetSeconds: row[5]),
                plannedCount: row[6], doneCount: row[7], timeAcuityScore: row[8], meanAbsErrorSeconds: row[9],
                meanSignedErrorSeconds: row[10], fearSoundEffective: row[11], healthLog: row[12],
                timingLateness: Self.timingLateness(row[13]), note: try Self.storedNote(row))
            return withheld.contains(line.sessionID) ? line.withheld : line
        }
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
