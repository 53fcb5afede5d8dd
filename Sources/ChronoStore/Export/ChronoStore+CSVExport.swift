import ChronoCore
import ChronoSync
import GRDB

extension ChronoStore {
    /// The CSV columns, in order; docs/STORE.md describes each. One row per attempt (Challenge, Fear) or
    /// boundary (Passive), each with its session's fields; a session with neither gets one `session` row
    /// so that no session disappears from the export.
    public static let csvColumns = [
        "session_id", "session_started_at", "session_ended_at", "mode", "status", "target_interval_seconds",
        "planned_count", "done_count", "board", "fear_threshold_percent", "fear_sound_effective",
        "time_acuity_score", "mean_abs_error_seconds", "mean_signed_error_seconds", "std_dev_error_seconds",
        "mean_abs_percent_error", "total_duration_seconds", "health_log",
        "row_kind", "row_index", "row_at", "start_mark_ns", "tap_mark_ns", "elapsed_seconds", "signed_error_seconds",
        "abs_percent_error", "zone", "boundary_due_ns", "boundary_fired_ns", "boundary_fired_late_ms",
        "timing_late_ms", "note",
    ]

    /// The earliest start included by "the last `days` days"; saturates rather than overflowing for
    /// absurd day counts (every session is then included).
    static func cutoff(now: Int64, days: Int) -> Int64 {
        let (span, overflow) = Int64(clamping: max(days, 0)).multipliedReportingOverflow(by: 86_400_000_000_000)
        if overflow { return Int64.min }
        let (start, underflow) = now.subtractingReportingOverflow(span)
        return underflow ? Int64.min : start
    }

    /// Writes the CSV of sessions started in the last `days` days (all when nil) to `sink`, in chunks.
    public func exportCSV(days: Int?, nowUnixNanoseconds now: Int64, to sink: (String) throws -> Void) throws(StoreError) {
        let sessions = try read { db in
            if let days {
                return try loadSessions(db, filter: "s.started_unix_ns >= ?", arguments: [Self.cutoff(now: now, days: days)])
            }
            return try loadSessions(db, filter: "1", arguments: [])
        }
        do {
            try sink(CSVText.record(Self.csvColumns))
            var chunk = ""
            for session in sessions {
                for row in Self.csvRows(session) { chunk += CSVText.record(row) }
                if chunk.utf8.count > 65_536 { try sink(chunk); chunk = "" }
            }
            try sink(chunk)
        } catch {
            throw mapped(error)
        }
    }

    /// Public for the collector, whose export is these columns with the device's in front.
    public static func csvRows(_ session: StoredSession) -> [[String]] {
        let outcome = session.outcome
        let configuration = outcome.configuration
        let metrics = outcome.metrics
        let hasMetrics = outcome.mode.usesAttempts && !outcome.attempts.isEmpty
        let status = session.isRunning ? "running" : outcome.status.rawValue
        let sessionFields: [String] = [
            session.sessionID,
            session.anchor.wallTime(at: outcome.startedAt).iso8601,
            session.isRunning ? "" : session.anchor.wallTime(at: outcome.endedAt).iso8601,
            outcome.mode.rawValue, status, String(configuration.interval.seconds),
            String(configuration.plannedCount),
            String(outcome.mode.usesAttempts ? outcome.attempts.count : outcome.repetitionsDone),
            session.board,
            outcome.mode == .fear ? number(configuration.fearThreshold) : "",
            outcome.mode == .fear ? (outcome.fearSoundEffective ? "true" : "false") : "",
            hasMetrics ? String(metrics.timeAcuityScore) : "",
            hasMetrics ? number(metrics.meanAbsErrorSeconds) : "",
            hasMetrics ? number(metrics.meanSignedErrorSeconds) : "",
            hasMetrics ? number(metrics.stdDevErrorSeconds) : "",
            hasMetrics ? number(metrics.meanAbsPercentError) : "",
            session.isRunning ? "" : String(outcome.totalDurationSeconds),
            session.healthLedger?.state.rawValue ?? "",
        ]
        // The session's timing flag and the person's note, last so that the columns before them keep
        // their places (the note as it is: `CSVText` quotes it and neutralises a formula).
        let timing = outcome.timingLateness.map { number(CueTiming.milliseconds($0)) } ?? ""
        let note = session.note ?? ""
        var rows: [[String]] = []
        for attempt in outcome.attempts {
            rows.append(sessionFields + [
                "attempt", String(attempt.index), session.anchor.wallTime(at: attempt.startMark).iso8601,
                String(attempt.startMark.nanoseconds), String(attempt.tapMark.nanoseconds), number(attempt.elapsedSeconds),
                number(attempt.signedErrorSeconds), number(attempt.absPercentError), attempt.zone.rawValue, "", "", "", timing, note,
            ])
        }
        for (position, boundary) in outcome.boundaries.enumerated() {
            let fired = position < session.boundariesFired.count ? session.boundariesFired[position] : nil
            rows.append(sessionFields + [
                "boundary", String(boundary.index), session.anchor.wallTime(at: boundary.due).iso8601,
                "", "", "", "", "", "", String(boundary.due.nanoseconds), fired.map { String($0.nanoseconds) } ?? "",
                fired.map { number(Double(($0 - boundary.due).nanoseconds) / 1e6) } ?? "", timing, note,
            ])
        }
        if rows.isEmpty {
            rows.append(sessionFields + ["session", "", session.anchor.wallTime(at: outcome.startedAt).iso8601] + Array(repeating: "", count: 9) + [timing, note])
        }
        return rows
    }

    /// Full precision, the same text as the JSON health log uses.
    static func number(_ value: Double) -> String { JSONValue.double(value).compactText }
}
