/// Decides whether a finished session gets a health record and builds it (SPEC §4).
///
/// Eligible: completed Challenge or Fear sessions with at least one attempt; completed Passive
/// sessions with at least one boundary and either every repetition done or a duration of at least the
/// lesser of two intervals and 5 minutes; completed Reproduction sessions with at least one attempt
/// (docs/REPRODUCTION.md: the rule of Challenge, from the session start, since the first interval is
/// presented from it). Never: aborted or interrupted sessions, test intervals.
/// Dates come from the monotonic marks through the session's one wall/monotonic anchor.
public enum HealthRecordBuilder {
    /// The shortest early-ended Passive session that is still logged: min(2 × interval, this).
    public static let passiveMinimumLoggedDuration = TimeSpan.seconds(300)

    public enum Decision: Hashable, Sendable {
        case record(HealthRecord)
        case none(reason: String)

        public var record: HealthRecord? {
            if case .record(let record) = self { return record }
            return nil
        }

        /// `health_record` (the record, or null) and, when null, `health_record_reason`: how every
        /// JSON output of the program shows the decision.
        public var jsonMembers: [(String, JSONValue)] {
            switch self {
            case .record(let record): return [("health_record", record.json)]
            case .none(let reason): return [("health_record", .null), ("health_record_reason", .string(reason))]
            }
        }
    }

    /// `resultsWithheld`: the session's results are withheld now (`StudyStanding.resultsShown`, asked by
    /// the caller); its record then keeps its dates, mode, interval and attempt count, and none of its
    /// results (`withheldMetadata`).
    public static func decide(
        for outcome: SessionOutcome, sessionID: String, device: String, anchor: WallClockAnchor, resultsWithheld: Bool = false
    ) -> Decision {
        switch outcome.status {
        case .aborted: return .none(reason: "The session was aborted; aborted sessions are never logged.")
        case .interrupted: return .none(reason: "The session was interrupted; interrupted sessions are never logged.")
        case .completed: break
        }
        guard outcome.configuration.interval.isProductInterval else {
            return .none(reason: "The session used a test-only interval.")
        }
        let interval = outcome.configuration.interval
        if outcome.mode.usesAttempts {
            guard !outcome.attempts.isEmpty else { return .none(reason: "The session has no attempt.") }
        } else {
            guard !outcome.boundaries.isEmpty else { return .none(reason: "The session reached no boundary.") }
            let allDone = outcome.repetitionsDone >= outcome.configuration.plannedCount
            let minimum = min(interval.span * 2, passiveMinimumLoggedDuration)
            guard allDone || outcome.endedAt - outcome.startedAt >= minimum else {
                return .none(reason: "The Passive session ended early after \(DurationText.format(magnitudeOf: outcome.endedAt - outcome.startedAt)), shorter than \(DurationText.format(magnitudeOf: minimum)); too short to log.")
            }
        }
        guard outcome.endedAt >= outcome.recordStart else {
            return .none(reason: "The session's end lies before its start; its marks are unreliable.")
        }
        guard anchor.checkedUnixNanoseconds(at: outcome.recordStart) != nil,
              anchor.checkedUnixNanoseconds(at: outcome.endedAt) != nil else {
            return .none(reason: "The session's dates fall outside the accepted range, \(TimeLimits.wallClockRangeText); its marks are unreliable.")
        }
        return .record(HealthRecord(
            startDate: anchor.wallTime(at: outcome.recordStart),
            endDate: anchor.wallTime(at: outcome.endedAt),
            device: device,
            metadata: resultsWithheld && outcome.mode.usesAttempts
                ? withheldMetadata(for: outcome, sessionID: sessionID) : metadata(for: outcome, sessionID: sessionID),
            sessionID: sessionID))
    }

    /// The metadata keys and types of SPEC §4, in a fixed order.
    public static func metadata(for outcome: SessionOutcome, sessionID: String) -> [(key: String, value: HealthMetadataValue)] {
        var entries: [(key: String, value: HealthMetadataValue)] = [
            ("chronoception_version", .int(outcome.mode == .reproduction ? HealthRecord.reproductionSchemaVersion : HealthRecord.schemaVersion)),
            ("chronoception_mode", .string(outcome.mode.rawValue)),
            ("target_interval_seconds", .int(outcome.configuration.interval.seconds)),
        ]
        if outcome.mode.usesAttempts {
            let metrics = outcome.metrics
            entries += [
                ("attempt_count", .int(outcome.attempts.count)),
                ("mean_abs_error_seconds", .double(metrics.meanAbsErrorSeconds)),
                ("mean_signed_error_seconds", .double(metrics.meanSignedErrorSeconds)),
                ("std_dev_error_seconds", .double(metrics.stdDevErrorSeconds)),
                ("mean_abs_percent_error", .double(metrics.meanAbsPercentError)),
                ("time_acuity_score", .int(metrics.timeAcuityScore)),
            ]
            if outcome.mode == .reproduction {
                entries.append(("mean_ratio", .double(metrics.meanRatio)))
            }
            if outcome.mode == .fear {
                entries += [
                    ("fear_threshold_percent", .double(outcome.configuration.fearThreshold)),
                    ("fear_sound_effective", .bool(outcome.fearSoundEffective)),
                ]
            }
        } else {
            entries += [
                ("repetition_count", .int(outcome.repetitionsDone)),
                ("total_duration_seconds", .int(outcome.totalDurationSeconds)),
            ]
        }
        entries += [
            ("HKMetadataKeySyncIdentifier", .string(sessionID)),
            ("HKMetadataKeySyncVersion", .int(1)),
        ]
        return entries
    }

    /// The record of a session whose results are withheld (docs/STUDIES.md, "The health log"): version
    /// `HealthRecord.withheldSchemaVersion`, the mode, interval and attempt count, `results_withheld`
    /// true, and none of the keys that say how well the person did (errors, score, ratio, Fear sound).
    public static func withheldMetadata(for outcome: SessionOutcome, sessionID: String) -> [(key: String, value: HealthMetadataValue)] {
        var entries: [(key: String, value: HealthMetadataValue)] = []
        entries.append(("chronoception_version", .int(HealthRecord.withheldSchemaVersion)))
        entries.append(("chronoception_mode", .string(outcome.mode.rawValue)))
        entries.append(("target_interval_seconds", .int(outcome.configuration.interval.seconds)))
        entries.append(("attempt_count", .int(outcome.attempts.count)))
        entries.append(("results_withheld", .bool(true)))
        entries.append(("HKMetadataKeySyncIdentifier", .string(sessionID)))
        entries.append(("HKMetadataKeySyncVersion", .int(1)))
        return entries
    }
}
