import ChronoCore

/// `sync status` in words and as JSON: the collector, what is pending, the last success and — in one
/// line with its fix — why the last attempt failed. The one owner of these words: `chronoception sync
/// status` prints the lines, and the device API's `GET /api/v1/sync` (the companion's Sync card) sends
/// the same lines beside the fields. Pure: the state and the clock's readings come in as values.
public enum SyncStatusText {
    /// One line of the status: what it is about (`pending`) and what it says (`3 sessions`).
    public struct Line: Hashable, Sendable {
        public var label: String
        public var text: String

        public init(_ label: String, _ text: String) {
            self.label = label
            self.text = text
        }

        /// As `sync status` prints it: `label: text`.
        public var line: String { "\(label): \(text)" }
    }

    /// How long sync may fail before a glance at the companion's Home says so: a device that is off the
    /// network for an evening is normal; a day without reaching the collector is worth a look.
    public static let attentionAfterNanoseconds: Int64 = 86_400_000_000_000

    /// The status's lines, each time written by `time` (unix nanoseconds to text).
    public static func report(_ state: SyncState, copied: Bool = false, time: (Int64) -> String) -> [Line] {
        var lines: [Line] = []
        if copied {
            lines.append(Line("copied", "this data directory seems copied from another machine, so this machine does not push as device \(state.deviceID); `chronoception sync add URL --code CODE` enrols it as a new device (with a new device ID)"))
        }
        var failing: Line?
        if state.consecutiveFailures > 0, let message = state.lastFailureMessage {
            let when = state.lastAttemptUnixNanoseconds.map { " (\(time($0)), \(state.consecutiveFailures == 1 ? "the first failure" : "\(state.consecutiveFailures) failures in a row"))" } ?? ""
            // The stored line is `sync now`'s (`sync: …`); beside the label `failing` the prefix says nothing.
            failing = Line("failing\(when)", message.hasPrefix("sync: ") ? String(message.dropFirst(6)) : message)
        }
        guard let enrolment = state.enrolment else {
            lines.append(Line("not enrolled", "run `chronoception sync add http://HOST:PORT --code CODE` (the code comes from `chronoception-collector enrol NAME`)"))
            lines.append(Line("pending", "\(sessions(state.pending)) (sent after enrolment)"))
            if let failing { lines.append(failing) }
            lines.append(Line("device", state.deviceID))
            return lines
        }
        lines.append(Line("collector", "\(enrolment.collectorURL) as '\(enrolment.deviceName)'"))
        lines.append(Line("pending", sessions(state.pending)))
        lines.append(Line("last success", state.lastSuccessUnixNanoseconds.map(time) ?? "never"))
        if let failing { lines.append(failing) }
        if let problem = state.preferenceProblem {
            lines.append(Line("preference refused", "\(problem); change it on the collector"))
        }
        lines.append(Line("device", state.deviceID))
        return lines
    }

    /// The lines as `sync status` prints them, times in ISO 8601 local time.
    public static func lines(_ state: SyncState, copied: Bool = false,
                             offsetAt: (Int64) -> Int = { LocalTimeZone.utcOffsetSeconds(atUnixSeconds: $0 / 1_000_000_000) }) -> [String] {
        report(state, copied: copied) { iso8601($0, offsetAt) }.map(\.line)
    }

    /// The one sentence a glance (the companion's Home) shows, or nil while nothing needs a look:
    /// enrolled, failing, and no success for more than `attentionAfterNanoseconds` (counted from the
    /// enrolment when there was never one); or a copied data directory, which never pushes.
    public static func attention(_ state: SyncState, copied: Bool = false, nowUnixNanoseconds now: Int64) -> String? {
        if copied { return "Sync is stopped: this data directory seems copied from another machine. See Sync in Settings." }
        guard let enrolment = state.enrolment, state.consecutiveFailures > 0 else { return nil }
        let since = state.lastSuccessUnixNanoseconds ?? enrolment.enrolledUnixNanoseconds
        guard now - since > attentionAfterNanoseconds else { return nil }
        let pending = state.pending == 0 ? "" : " (\(sessions(state.pending)) waiting)"
        return "Sessions have not reached the collector for more than a day\(pending). See Sync in Settings."
    }

    /// `sync status --json`: the same state as fields.
    public static func json(_ state: SyncState, copied: Bool = false) -> JSONValue {
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

    /// `1 session`, `3 sessions`.
    public static func sessions(_ count: Int) -> String { CountText.of(count, "session") }

    /// ISO 8601 in the offset `offsetAt` gives for the instant.
    public static func iso8601(_ unixNanoseconds: Int64, _ offsetAt: (Int64) -> Int) -> String {
        WallTime(unixNanoseconds: unixNanoseconds, utcOffsetSeconds: offsetAt(unixNanoseconds)).iso8601
    }
}
