import ChronoCore
import ChronoStore
import Hummingbird

/// The device's sync with a collector, as `chronoception sync status` says it: the fields, the same
/// lines (`SyncStatusText`, the one owner of the words) and, when something has been wrong for a
/// while, the one sentence the companion's Home shows. Read only: enrolling and pushing stay on the
/// command line (`sync add`, `sync now`) and the daemon.
enum SyncRoutes {
    static func add(to group: RouterGroup<APIRequestContext>, _ state: APIState) {
        group.get("sync") { _, _ in
            let (sync, copied) = try await state.withStore { store in
                (try store.syncState(), try store.syncMachineState(current: MachineBinding.current()) == .copied)
            }
            return JSONResponse.ok(json(sync, copied: copied, nowUnixNanoseconds: state.nowUnixNanoseconds,
                                        offsetAt: state.utcOffsetSeconds(at:)))
        }
    }

    /// `GET /api/v1/sync`'s body.
    static func json(_ sync: SyncState, copied: Bool, nowUnixNanoseconds now: Int64, offsetAt: (Int64) -> Int) -> JSONValue {
        func at(_ value: Int64?) -> JSONValue { value.map { .string(SyncStatusText.iso8601($0, offsetAt)) } ?? .null }
        let failing = sync.consecutiveFailures > 0
        let lines = SyncStatusText.report(sync, copied: copied) { shortTime($0, offsetAt) }
        return .object([
            ("enrolled", .bool(sync.enrolment != nil)),
            ("collector_url", sync.enrolment.map { .string($0.collectorURL) } ?? .null),
            ("device_name", sync.enrolment.map { .string($0.deviceName) } ?? .null),
            ("device_id", .string(sync.deviceID)),
            ("copied_from_another_machine", .bool(copied)),
            ("pending", .int(sync.pending)),
            ("last_success_at", at(sync.lastSuccessUnixNanoseconds)),
            ("last_attempt_at", at(sync.lastAttemptUnixNanoseconds)),
            ("consecutive_failures", .int(sync.consecutiveFailures)),
            ("last_failure_code", failing ? sync.lastFailureCode.map { .string($0) } ?? .null : .null),
            ("last_failure", failing ? sync.lastFailureMessage.map { .string($0) } ?? .null : .null),
            ("preference_problem", sync.preferenceProblem.map { .string($0) } ?? .null),
            ("lines", .array(lines.map { .object([("label", .string($0.label)), ("text", .string($0.text))]) })),
            ("attention", SyncStatusText.attention(sync, copied: copied, nowUnixNanoseconds: now).map { .string($0) } ?? .null),
        ])
    }

    /// `2026-11-25 23:40`, the device's local time: a page reads it at a glance (the fields carry ISO 8601).
    static func shortTime(_ unixNanoseconds: Int64, _ offsetAt: (Int64) -> Int) -> String {
        WallTime(unixNanoseconds: unixNanoseconds, utcOffsetSeconds: offsetAt(unixNanoseconds)).localMinuteText
    }
}
