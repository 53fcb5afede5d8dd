import ChronoCore
import ChronoStore
import ChronoSync

/// The read API's JSON shapes (snake_case, instants as RFC 3339 text and Unix nanoseconds).
enum CollectorJSON {
    static func instant(_ nanoseconds: Int64?) -> JSONValue {
        guard let nanoseconds else { return .null }
        return .string(WallTime(unixNanoseconds: nanoseconds, utcOffsetSeconds: 0).iso8601)
    }

    static func device(_ device: CollectorDevice) -> JSONValue {
        .object([
            ("id", .string(device.id)), ("name", .string(device.name)),
            ("participant", device.participant.map(JSONValue.string) ?? .null),
            ("board", .string(device.board)), ("software_version", .string(device.softwareVersion)),
            ("enrolled_at", instant(device.enrolledUnixNanoseconds)), ("revoked_at", instant(device.revokedUnixNanoseconds)),
            ("last_seen_at", instant(device.lastSeenUnixNanoseconds)), ("sessions", .int(device.sessionCount)),
            ("refused_sessions", .int(device.refusedSessionCount)),
            ("consent", device.consent.map(consent) ?? .null),
        ])
    }

    /// A device's newest consent decision on its study: a declined or withdrawn one means the study
    /// is stopped on that device.
    static func consent(_ record: StudyConsent.Record) -> JSONValue {
        .object([
            ("decision", .string(record.decision.rawValue)), ("decided_at", instant(record.decidedUnixNanoseconds)),
            ("protocol", .string(record.protocolName)), ("protocol_version", .int(record.protocolVersion)),
            ("study_stopped", .bool(record.decision != .accepted)),
        ])
    }

    /// A session's summary, computed with the core from its raw measurements, and last the session
    /// record itself as the collector keeps it (`record`). A session whose results are withheld now
    /// (`CollectorWithheld`) has its results and its record null (its raw taps would give them away) and
    /// `results_withheld: true`, as the device's own API shows it.
    static func session(_ stored: CollectorSession, withheld: Bool) -> JSONValue {
        let wire = stored.session
        var members: [(String, JSONValue)] = [
            ("id", .string(wire.id)), ("device_id", .string(stored.deviceID)), ("device_name", .string(stored.deviceName)),
            ("participant", stored.participant.map(JSONValue.string) ?? .null), ("mode", .string(wire.mode)),
            ("status", .string(wire.status)), ("reason", wire.reason.map(JSONValue.string) ?? .null),
            ("target_interval_ms", .int(wire.targetIntervalMilliseconds)), ("planned_count", .int(wire.plannedCount)),
            ("health_decision", .string(wire.healthDecision)), ("received_at", instant(stored.receivedUnixNanoseconds)),
            ("note", wire.note.map(JSONValue.string) ?? .null),
        ]
        if let outcome = try? wire.validatedOutcome() {
            let anchor = wire.anchor
            members.append(("started_at", .string(anchor.wallTime(at: outcome.startedAt).iso8601)))
            members.append(("ended_at", .string(anchor.wallTime(at: outcome.endedAt).iso8601)))
            members.append(("done_count", .int(outcome.mode.usesAttempts ? outcome.attempts.count : outcome.repetitionsDone)))
            if outcome.mode.usesAttempts && !outcome.attempts.isEmpty {
                let metrics = outcome.metrics
                members.append(("time_acuity_score", withheld ? .null : .int(metrics.timeAcuityScore)))
                members.append(("mean_abs_error_seconds", withheld ? .null : .double(metrics.meanAbsErrorSeconds)))
                members.append(("mean_signed_error_seconds", withheld ? .null : .double(metrics.meanSignedErrorSeconds)))
            }
        }
        if withheld { members.append(("results_withheld", .bool(true))) }
        members.append(("record", withheld ? .null : wire.json))
        return .object(members)
    }
}
