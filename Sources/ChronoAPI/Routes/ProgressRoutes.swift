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
            let report = try await state.withStore { try $0.progress(nowUnixNanoseconds: now, utcOffsetSeconds: offset, only: only) }
            // The recent sessions of a withheld study block show no result (`WithheldResults`).
            let withheld = try await WithheldResults.ids(state)
            guard !withheld.isEmpty, case .object(let members) = report.json else { return JSONResponse.ok(report.json) }
            return JSONResponse.ok(.object(members.map { key, value in
                guard key == "recent_sessions", case .array(let lines) = value else { return (key, value) }
                return (key, .array(lines.map { WithheldResults.shown($0, in: withheld) }))
            }))
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
