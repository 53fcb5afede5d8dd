import ChronoCore
import ChronoStore
import Hummingbird

/// The health log: its status (as `chronoception health status`) and backfill of owed records.
/// Turning logging on or off is the `health-logging` setting.
enum HealthRoutes {
    static func add(to group: RouterGroup<APIRequestContext>, _ state: APIState) {
        group.get("health") { _, _ in
            let now = state.nowUnixNanoseconds
            let status = try await state.withStore { store in
                _ = try store.flushHeldRecords(nowUnixNanoseconds: now)
                return try store.healthLogStatus()
            }
            return JSONResponse.ok(.object([
                ("status", .string(status.status)),
                ("path", .string(status.path)),
                ("written", .int(status.written)),
                ("skipped", .int(status.skipped)),
                ("owed", .object(status.owed.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
                ("owed_total", .int(status.owedTotal)),
                ("wall_clock_synchronised", .bool(status.clockSynchronised)),
                ("wall_clock_check", .bool(status.wallClockCheck)),
            ]))
        }
        group.post("health/backfill") { request, context in
            _ = try await JSONBody.read(request, context: context).only([])
            let now = state.nowUnixNanoseconds
            let report = try await state.withStore { try $0.backfill(nowUnixNanoseconds: now) }
            return JSONResponse.ok(.object([
                ("written", .int(report.written)),
                ("already_in_log", .int(report.alreadyInLog)),
                ("held", .int(report.held)),
                ("skipped", .int(report.skipped)),
                ("failure", report.failure.map { .string($0) } ?? .null),
            ]))
        }
    }
}
