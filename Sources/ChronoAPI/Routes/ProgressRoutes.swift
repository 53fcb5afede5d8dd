import ChronoCore
import ChronoStore
import Hummingbird

/// Progress: the same report as `chronoception progress --json`, and day-by-day series over up to
/// a year for charts (a day without attempts is `null`, never zero).
enum ProgressRoutes {
    static func add(to group: RouterGroup<APIRequestContext>, _ state: APIState) {
        group.get("progress") { request, _ in
            let only = try QueryParameters(request: request).interval()
            let now = state.nowUnixNanoseconds
            let offset = state.utcOffsetSeconds(at: now)
            // The store leaves withheld study sessions' results out of every figure and line
            // (`withheldResultSessionIDs`), as for `chronoception progress`.
            let report = try await state.withStore { try $0.progress(nowUnixNanoseconds: now, utcOffsetSeconds: offset, only: only) }
            return JSONResponse.ok(report.json)
        }
        group.get("progress/daily") { request, _ in
            let parameters = QueryParameters(request: request)
            let only = try parameters.interval()
            let days = try parameters.int("days", in: 1...ChronoStore.dailyProgressMaximumDays) ?? 30
            let now = state.nowUnixNanoseconds
            let offset = state.utcOffsetSeconds(at: now)
            let (today, daily) = try await state.withStore { try $0.dailyErrors(days: days, nowUnixNanoseconds: now, utcOffsetSeconds: offset, only: only) }
            var typicalError: [Int64: Double] = [:]
            var attempts: [Int64: Double] = [:]
            for (day, errors) in daily {
                if let value = errors.meanAbsErrorSeconds { typicalError[day] = value }
                attempts[day] = Double(errors.attemptCount)
            }
            return JSONResponse.ok(.object([
                ("days", .int(days)),
                ("interval_seconds", only.map { .int($0.seconds) } ?? .null),
                ("time_acuity", ProgressReport.acuitySeries(daily, lastDay: today, dayCount: days).json),
                ("typical_error_seconds", DailySeries(lastDay: today, dayCount: days, valuesByDay: typicalError).json),
                ("attempts", DailySeries(lastDay: today, dayCount: days, valuesByDay: attempts).json),
            ]))
        }
    }
}
