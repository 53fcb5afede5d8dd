import ChronoCore
import ChronoStore

/// `sync status` as lines and as JSON: the collector, what is pending, the last success and — in
/// one line with its fix — why the last attempt failed.
enum SyncStatusText {
    static func lines(_ state: SyncState, copied: Bool = false,
                      offsetAt: (Int64) -> Int = { LocalTimeZone.utcOffsetSeconds(atUnixSeconds: $0 / 1_000_000_000) }) -> [String] {
        var lines: [String] = []
        if copied {
            lines.append("copied: this data directory seems copied from another machine, so this machine does not push as device \(state.deviceID); `chronoception sync add URL --code CODE` enrols it as a new device (with a new device ID)")
        }
        var failing: String?
        if state.consecutiveFailures > 0, let message = state.lastFailureMessage {
            let when = state.lastAttemptUnixNanoseconds.map { " (\(time($0, offsetAt)), \(state.consecutiveFailures == 1 ? "the first failure" : "\(state.consecutiveFailures) failures in a row"))" } ?? ""
            failing = "failing\(when): \(message)"
        }
        guard let enrolment = state.enrolment else {
            lines.append("not enrolled: run `chronoception sync add http://HOST:PORT --code CODE` (the code comes from `chronoception-collector enrol NAME`)")
            lines.append("pending: \(sessions(state.pending)) (sent after enrolment)")
            if let failing { lines.append(failing) }
            lines.append("device: \(state.deviceID)")
            return lines
        }
        lines.append("collector: \(enrolment.collectorURL) as '\(enrolment.deviceName)'")
        lines.append("pending: \(sessions(state.pending))")
        lines.append("last success: \(state.lastSuccessUnixNanoseconds.map { time($0, offsetAt) } ?? "never")")
        if let failing { lines.append(failing) }
        if let problem = state.preferenceProblem {
            lines.append("preference refused: \(problem); change it on the collector")
        }
        lines.append("device: \(state.deviceID)")
        return lines
    }

    static func json(_ state: SyncState, copied: Bool = false) -> JSONValue {
        func optionalInt(_ value: Int64?) -> JSONValue { value.map { .int($0) } ?? .null }
        func optionalText(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
        return .object([
            ("device_id", .string(state.deviceID)),
            ("copied_from_another_machine", .bool(copied)),
            ("enrolled", .bool(state.enrolment != nil)),
            ("collector_url", optionalText(state.enrolment?.collectorURL)),
            ("device_name", optionalText(state.enrolment?.deviceName)),
            ("pending", .int(Int64(state.pending))),
            ("cursor", .int(state.cursor)),
            ("last_success_unix_ns", optionalInt(state.lastSuccessUnixNanoseconds)),
            ("last_attempt_unix_ns", optionalInt(state.lastAttemptUnixNanoseconds)),
            ("consecutive_failures", .int(Int64(state.consecutiveFailures))),
            ("last_failure_code", state.consecutiveFailures > 0 ? optionalText(state.lastFailureCode) : .null),
            ("last_failure", state.consecutiveFailures > 0 ? optionalText(state.lastFailureMessage) : .null),
            ("preference_problem", optionalText(state.preferenceProblem)),
        ])
    }

    private static func sessions(_ count: Int) -> String { count == 1 ? "1 session" : "\(count) sessions" }

    private static func time(_ unixNanoseconds: Int64, _ offsetAt: (Int64) -> Int) -> String {
        WallTime(unixNanoseconds: unixNanoseconds, utcOffsetSeconds: offsetAt(unixNanoseconds)).iso8601
    }
}
