/// The `--json` form of progress and sessions: stable snake_case keys, seconds as floats, gaps as
/// `null`, so scripts can chart the same numbers the text shows.
extension ProgressReport {
    /// `results_withheld_sessions` (here and per interval) and a recent line's `results_withheld` are
    /// there only when a study withholds results, so every other report stays as it was.
    public var json: JSONValue {
        var members = baseMembers
        if resultsWithheldSessions > 0 { members.append(("results_withheld_sessions", .int(resultsWithheldSessions))) }
        return .object(members)
    }

    private var baseMembers: [(String, JSONValue)] {
        [
            ("completed_sessions", .int(completedSessions)),
            ("aborted_sessions", .int(abortedSessions)),
            ("interrupted_sessions", .int(interruptedSessions)),
            ("only_interval_seconds", onlyInterval.map { .int($0.seconds) } ?? .null),
            ("intervals", .array(intervals.map { $0.json(today: today) })),
            ("mode_mix", .array(modeMix.map { entry in
                .object([("mode", .string(entry.mode.rawValue)), ("sessions", .int(entry.sessions)), ("share", .double(entry.share))])
            })),
            ("daily_time_acuity", overallAcuitySeries.json),
            ("recent_sessions", .array(recentSessions.map(\.json))),
        ]
    }
}

extension ProgressReport.IntervalProgress {
    public func json(today: Int64) -> JSONValue {
        var members = baseMembers(today: today)
        if resultsWithheldSessions > 0 { members.append(("results_withheld_sessions", .int(resultsWithheldSessions))) }
        return .object(members)
    }

    private func baseMembers(today: Int64) -> [(String, JSONValue)] {
        [
            ("target_interval_seconds", .int(interval.seconds)),
            ("interval", .string(interval.description)),
            ("pattern", pattern.map { .string($0.description) } ?? .null),
            ("completed_sessions", .int(completedSessions)),
            ("typical_error_seconds_last_7_days", optional(lastSevenDays.meanAbsErrorSeconds)),
            ("attempts_last_7_days", .int(lastSevenDays.attemptCount)),
            ("typical_error_seconds_7_days_before", optional(sevenDaysBefore.meanAbsErrorSeconds)),
            ("attempts_7_days_before", .int(sevenDaysBefore.attemptCount)),
            ("trend", .string(trend.key)),
            ("time_acuity_score", timeAcuity.map { .int($0) } ?? .null),
            ("last_zones", .array(lastZones.map { .string($0.rawValue) })),
            ("daily_time_acuity", ProgressReport.acuitySeries(daily, lastDay: today, dayCount: ProgressReport.intervalDays).json),
        ]
    }
}

extension ProgressReport.SessionLine {
    /// A withheld line's result members are null, with `results_withheld: true` last (as the API's
    /// sessions show it).
    public var json: JSONValue {
        var members = baseMembers
        if resultsWithheld { members.append(("results_withheld", .bool(true))) }
        return .object(members)
    }

    private var baseMembers: [(String, JSONValue)] {
        [
            ("session_id", .string(sessionID)),
            ("mode", .string(mode.rawValue)),
            ("target_interval_seconds", .int(interval.seconds)),
            ("status", .string(status)),
            ("started_at", .string(startedAt.iso8601)),
            ("planned_count", .int(plannedCount)),
            ("done_count", .int(doneCount)),
            ("time_acuity_score", timeAcuityScore.map { .int($0) } ?? .null),
            ("mean_abs_error_seconds", optional(meanAbsErrorSeconds)),
            ("mean_signed_error_seconds", optional(meanSignedErrorSeconds)),
            ("fear_sound_effective", fearSoundEffective.map { .bool($0) } ?? .null),
            ("health_log", healthLog.map { .string($0) } ?? .null),
            ("note", note.map { .string($0) } ?? .null),
            ("timing_late_ms", optional(timingLateness.map(CueTiming.milliseconds))),
        ]
    }
}

extension DailySeries {
    /// `[{"day": "2026-11-20", "value": 82}, {"day": "2026-11-21", "value": null}, …]`.
    public var json: JSONValue {
        .array(values.enumerated().map { offset, value in
            .object([("day", .string(Self.dayText(firstDay + Int64(offset)))), ("value", optional(value))])
        })
    }
}

private func optional(_ value: Double?) -> JSONValue {
    value.map { .double($0) } ?? .null
}
