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
        // Appended later, so every column before keeps its place (docs/STORE.md).
        "presented_start_mono_ns", "presented_end_mono_ns", "feedback_withheld", "results_withheld", "reason",
    ]

    /// The earliest start included by "the last `days` days"; saturates rather than overflowing for
    /// absurd day counts (every session is then included).
    static func cutoff(now: Int64, days: Int) -> Int64 {
        let (span, overflow) = Int64(clamping: max(days, 0)).multipliedReportingOverflow(by: 86_400_000_000_000)
        if overflow { return Int64.min }
        let (start, underflow) = now.subtractingReportingOverflow(span)
        return underflow ? Int64.min : start
    }

    /// Writes the CSV of sessions started in the last `days` days (all when nil) that match `filters`
    /// (mode, interval, days, study, as the session list reads them; its limit and cursor are not
    /// used) to `sink`, in chunks. A session whose results are withheld at `now`
    /// (`withheldResultSessionIDs`) has none in it.
    public func exportCSV(days: Int?, filters: SessionQuery = SessionQuery(), nowUnixNanoseconds now: Int64,
                          to sink: (String) throws -> Void) throws(StoreError) {
        let withheld = try withheldResultSessionIDs(nowUnixNanoseconds: now)
        var (conditions, arguments) = Self.filterConditions(filters)
        if let days {
            conditions.insert("s.started_unix_ns >= ?", at: 0)
            arguments.insert(Self.cutoff(now: now, days: days), at: 0)
        }
        let filter = conditions.isEmpty ? "1" : conditions.joined(separator: " AND ")
        let sessions = try read { db in
            try loadSessions(db, filter: filter, arguments: StatementArguments(arguments))
        }
        do {
            try CSVText.write(header: Self.csvColumns, sessions, rows: { Self.csvRows($0, resultsWithheld: withheld.contains($0.sessionID)) },
                              to: sink)
        } catch {
            throw mapped(error)
        }
    }

    /// Public for the collector, whose export is these columns with the device's in front.
    /// `resultsWithheld`: the session's results are withheld now; its score, errors, zones and press
    /// marks (from which the errors follow) are left empty and `results_withheld` is `true`.
    /// `feedback_withheld` is `true` for every session of a study block without feedback (SPEC §11:
    /// flagged in every export), revealed or not.
    public static func csvRows(_ session: StoredSession, resultsWithheld: Bool = false) -> [[String]] {
        let outcome = session.outcome
        let configuration = outcome.configuration
        let metrics = outcome.metrics
        let hasMetrics = outcome.mode.usesAttempts && !outcome.attempts.isEmpty && !resultsWithheld
        let shown = !resultsWithheld
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
        let flags = [session.study.map { $0.feedbackShown ? "" : "true" } ?? "", resultsWithheld ? "true" : "",
                     session.isRunning ? "" : outcome.reason ?? ""]
        let noPresentation = ["", ""]
        var rows: [[String]] = []
        for attempt in outcome.attempts {
            var row = sessionFields
            row += ["attempt", String(attempt.index), session.anchor.wallTime(at: attempt.startMark).iso8601]
            row += shown ? [String(attempt.startMark.nanoseconds), String(attempt.tapMark.nanoseconds)] : ["", ""]
            row += shown ? [number(attempt.elapsedSeconds), number(attempt.signedErrorSeconds)] : ["", ""]
            row += shown ? [number(attempt.absPercentError), attempt.zone.rawValue] : ["", ""]
            row += ["", "", "", timing, note]
            row.append(attempt.presentedStart.map { String($0.nanoseconds) } ?? "")
            row.append(attempt.presentedEnd.map { String($0.nanoseconds) } ?? "")
            rows.append(row + flags)
        }
        for (position, boundary) in outcome.boundaries.enumerated() {
            let fired = position < session.boundariesFired.count ? session.boundariesFired[position] : nil
            let firedText: String = fired.map { String($0.nanoseconds) } ?? ""
            let lateText: String = fired.map { number(Double(($0 - boundary.due).nanoseconds) / 1e6) } ?? ""
            var row = sessionFields
            row += ["boundary", String(boundary.index), session.anchor.wallTime(at: boundary.due).iso8601]
            row += ["", "", "", "", "", ""]
            row += [String(boundary.due.nanoseconds), firedText, lateText, timing, note]
            rows.append(row + noPresentation + flags)
        }
        if rows.isEmpty {
            var row = sessionFields + ["session", "", session.anchor.wallTime(at: outcome.startedAt).iso8601]
            row += Array(repeating: "", count: 9)
            row += [timing, note]
            rows.append(row + noPresentation + flags)
        }
        return rows
    }

    /// Full precision, the same text as the JSON health log uses.
    static func number(_ value: Double) -> String { JSONValue.double(value).compactText }
}
