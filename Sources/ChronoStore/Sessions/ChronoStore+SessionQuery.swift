import ChronoCore
import GRDB

/// A filtered, paged list of sessions, newest first (the companion API's session list).
public struct SessionQuery: Hashable, Sendable {
    /// Where a page ended: the last session's start and id; the next page starts strictly after it.
    public struct Cursor: Hashable, Sendable {
        public var startedUnixNanoseconds: Int64
        public var sessionID: String

        public init(startedUnixNanoseconds: Int64, sessionID: String) {
            self.startedUnixNanoseconds = startedUnixNanoseconds
            self.sessionID = sessionID
        }
    }

    public var mode: SessionMode?
    public var interval: TrainingInterval?
    /// `completed`, `aborted`, `interrupted` or `running`.
    public var status: SessionStatusFilter?
    /// Local day numbers (`WallTime.localDayNumber`, in each session's own UTC offset), both inclusive.
    public var fromDay: CalendarDay?
    public var toDay: CalendarDay?
    /// A study protocol's name: only sessions that ran as part of it (their study tag names it).
    public var study: String?
    public var limit: Int
    public var after: Cursor?

    public init(mode: SessionMode? = nil, interval: TrainingInterval? = nil, status: SessionStatusFilter? = nil,
                fromDay: CalendarDay? = nil, toDay: CalendarDay? = nil, study: String? = nil, limit: Int = 50, after: Cursor? = nil) {
        self.mode = mode
        self.interval = interval
        self.status = status
        self.fromDay = fromDay
        self.toDay = toDay
        self.study = study
        self.limit = limit
        self.after = after
    }
}

/// The statuses a stored session row can have.
public enum SessionStatusFilter: String, Hashable, Sendable, CaseIterable {
    case completed, aborted, interrupted, running
}

/// One page of a session list and where the next one starts (nil on the last page).
public struct SessionPage: Hashable, Sendable {
    public var sessions: [ProgressReport.SessionLine]
    public var next: SessionQuery.Cursor?
}

extension ChronoStore {
    /// Sessions matching `query`, newest first, at most `query.limit`, through the start-time index.
    public func sessionPage(_ query: SessionQuery) throws(StoreError) -> SessionPage {
        var (conditions, arguments) = Self.filterConditions(query)
        if let after = query.after {
            conditions.append("(s.started_unix_ns < ? OR (s.started_unix_ns = ? AND s.id < ?))")
            arguments += [after.startedUnixNanoseconds, after.startedUnixNanoseconds, after.sessionID] as [any DatabaseValueConvertible]
        }
        let limit = max(1, query.limit)
        let filter = conditions.isEmpty ? "1" : conditions.joined(separator: " AND ")
        return try read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT s.id, s.mode, s.target_interval_ms, s.status, s.started_unix_ns, s.utc_offset_seconds, s.planned_count,
                    s.done_count, s.time_acuity_score, s.mean_abs_error_seconds, s.mean_signed_error_seconds, s.fear_sound_effective,
                    l.state, s.timing_late_ns, s.note
                FROM session s LEFT JOIN health_ledger l ON l.session_id = s.id
                WHERE \(filter)
                ORDER BY s.started_unix_ns DESC, s.id DESC LIMIT ?
                """, arguments: StatementArguments(arguments + [limit + 1]))
            let lines = try rows.prefix(limit).map { row in
                ProgressReport.SessionLine(
                    sessionID: row[0], mode: SessionMode(rawValue: row[1]) ?? .challenge, interval: try Self.interval(milliseconds: row[2], at: "session \(row[0] as String)"),
                    status: row[3], startedAt: WallTime(unixNanoseconds: row[4], utcOffsetSeconds: row[5]),
                    plannedCount: row[6], doneCount: row[7], timeAcuityScore: row[8], meanAbsErrorSeconds: row[9],
                    meanSignedErrorSeconds: row[10], fearSoundEffective: row[11], healthLog: row[12],
                    timingLateness: Self.timingLateness(row[13]), note: try Self.storedNote(row))
            }
            let next = rows.count > limit ? lines.last.map {
                SessionQuery.Cursor(startedUnixNanoseconds: $0.startedAt.unixNanoseconds, sessionID: $0.sessionID)
            } : nil
            return SessionPage(sessions: Array(lines), next: next)
        }
    }

    /// The sessions matching `query`'s filters, newest first, at most `query.limit`, each with its
    /// results left out when they are withheld at `now` (a study block without feedback): the command
    /// line's `sessions`.
    public func sessionLines(_ query: SessionQuery, nowUnixNanoseconds now: Int64) throws(StoreError) -> [ProgressReport.SessionLine] {
        let withheld = try withheldResultSessionIDs(nowUnixNanoseconds: now)
        return try sessionPage(query).sessions.map { withheld.contains($0.sessionID) ? $0.withheld : $0 }
    }

    /// The SQL conditions on `session s` (with their arguments) of a query's filters — mode, interval,
    /// status, days, study; not its cursor or limit: one reading of the filters for the session list
    /// and the CSV export.
    static func filterConditions(_ query: SessionQuery) -> (conditions: [String], arguments: [any DatabaseValueConvertible]) {
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        if let mode = query.mode { conditions.append("s.mode = ?"); arguments.append(mode.rawValue) }
        if let interval = query.interval { conditions.append("s.target_interval_ms = ?"); arguments.append(interval.span.milliseconds) }
        // Without an interval, `+status` keeps SQLite on the start-time index (newest first, stop at
        // the limit) instead of the status index and a sort of every match; with one, the interval
        // index (interval, status, start) is already in order.
        if let status = query.status {
            conditions.append(query.interval == nil ? "+s.status = ?" : "s.status = ?")
            arguments.append(status.rawValue)
        }
        // The day is the session's own local day; the start-time range (widened by the largest UTC
        // offsets) keeps SQLite on the index, the day expression then decides exactly.
        // Start times are after 1970, so SQLite's truncating division is the floor `localDayNumber` takes.
        let day = "((s.started_unix_ns / 1000000000 + s.utc_offset_seconds) / 86400)"
        if let from = query.fromDay {
            conditions.append("s.started_unix_ns >= ?"); arguments.append(from.unixNanoseconds(daysFromThis: -1))
            conditions.append("\(day) >= ?"); arguments.append(from.daysSinceEpoch)
        }
        if let to = query.toDay {
            conditions.append("s.started_unix_ns < ?"); arguments.append(to.unixNanoseconds(daysFromThis: 2))
            conditions.append("\(day) <= ?"); arguments.append(to.daysSinceEpoch)
        }
        if let study = query.study {
            conditions.append("s.id IN (SELECT t.session_id FROM session_study t WHERE t.protocol_name = ?)")
            arguments.append(study)
        }
        return (conditions, arguments)
    }
}
