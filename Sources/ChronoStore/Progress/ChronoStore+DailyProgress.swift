import ChronoCore
import GRDB

extension ChronoStore {
    /// The longest day-by-day window the store serves in one read (a year).
    public static let dailyProgressMaximumDays = 366

    /// Completed sessions' errors summed per local day over the `days` days ending today, for one
    /// interval or all: what a 30- or 90-day chart draws (days without attempts are absent, so they
    /// stay gaps). Returns today's day number with the sums. Sessions whose results are withheld now
    /// (`withheldResultSessionIDs`) are left out, as in `progress`.
    public func dailyErrors(days: Int, nowUnixNanoseconds now: Int64, utcOffsetSeconds: Int,
                            only: TrainingInterval? = nil) throws(StoreError) -> (today: Int64, daily: [Int64: ErrorAccumulator]) {
        let dayCount = min(max(days, 1), Self.dailyProgressMaximumDays)
        let today = WallTime(unixNanoseconds: now, utcOffsetSeconds: utcOffsetSeconds).localDayNumber
        let firstDay = today - Int64(dayCount - 1)
        let withheldList = Self.idList(try withheldResultSessionIDs(nowUnixNanoseconds: now))
        return try read { db in
            var daily: [Int64: ErrorAccumulator] = [:]
            // `+status` keeps SQLite on the start-time index (see `progress`).
            let rows = try Row.fetchCursor(Self.statement(db, """
                SELECT started_unix_ns, utc_offset_seconds, attempt_count, mean_abs_error_seconds, mean_abs_percent_error
                FROM session WHERE started_unix_ns >= ? AND +status = 'completed' AND attempt_count > 0\(only == nil ? "" : " AND target_interval_ms = \(only!.span.milliseconds)")
                AND id NOT IN (SELECT value FROM json_each(?))
                """, keep: only == nil), arguments: [(firstDay - 1) * 86_400_000_000_000, withheldList])
            while let row = try rows.next() {
                let day = WallTime(unixNanoseconds: row[0], utcOffsetSeconds: row[1]).localDayNumber
                guard day >= firstDay && day <= today else { continue }
                let count: Int = row[2]
                daily[day, default: ErrorAccumulator()].add(ErrorAccumulator(
                    attemptCount: count, absErrorSecondsSum: (row[3] as Double) * Double(count),
                    absPercentErrorSum: (row[4] as Double) * Double(count)))
            }
            return (today, daily)
        }
    }
}
