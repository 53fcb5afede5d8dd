/// The words and layout of `chronoception progress` and `chronoception sessions`, written once here so
/// that the command line and the companion show the same thing.
public enum ProgressText {
    /// Shown when there is no session at all.
    public static let emptyState = """
        No sessions yet.

        Run your first session on the device: tap the button to start the last session (5m 0s Challenge
        the first time), tap again when you think the interval has elapsed. Or from a terminal, start one
        of `chronoception challenge`, `chronoception passive` or `chronoception run`.
        To see what progress looks like without a device:
          chronoception simulate --sessions 300 --data-dir /tmp/chrono-demo
          chronoception progress --data-dir /tmp/chrono-demo
        `chronoception learn` explains the modes and the numbers.
        """

    public static func render(_ report: ProgressReport) -> String {
        guard !report.isEmpty else { return emptyState + "\n" }
        var lines: [String] = []
        var headline = "Progress — \(report.completedSessions) completed session\(report.completedSessions == 1 ? "" : "s")"
        if let only = report.onlyInterval { headline += " (showing \(only) only)" }
        var others: [String] = []
        if report.abortedSessions > 0 { others.append("\(report.abortedSessions) aborted") }
        if report.interruptedSessions > 0 { others.append("\(report.interruptedSessions) interrupted") }
        if !others.isEmpty { headline += "; " + others.joined(separator: ", ") }
        lines.append(headline)
        if let withheld = withheldText(report.resultsWithheldSessions) { lines.append(withheld) }
        lines.append("")

        if report.intervals.isEmpty {
            lines.append(report.onlyInterval.map { "No completed session with \($0) yet." } ?? "No completed session yet.")
            lines.append("")
        }
        for interval in report.intervals {
            lines += intervalBlock(interval, today: report.today)
            lines.append("")
        }

        lines.append("Mode mix: " + report.modeMix.map { entry in
            "\(entry.mode.rawValue) \(percentText(entry.share)) (\(entry.sessions))"
        }.joined(separator: " · "))

        let overall = report.overallAcuitySeries
        lines.append("Daily Time Acuity, \(ProgressReport.overallDays) days (\(DailySeries.dayText(overall.firstDay)) … \(DailySeries.dayText(report.today)); blank = no attempts that day):")
        lines.append("  │" + overall.sparkline(scaleMax: 100) + "│")
        lines.append("")

        if !report.recentSessions.isEmpty {
            lines.append("Recent sessions:")
            lines += sessionTable(report.recentSessions)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func intervalBlock(_ progress: ProgressReport.IntervalProgress, today: Int64) -> [String] {
        var lines: [String] = []
        var title = "\(progress.interval)"
        if let pattern = progress.pattern { title += "  H(I) \(pattern)" }
        title += " · \(progress.completedSessions) completed session\(progress.completedSessions == 1 ? "" : "s")"
        lines.append(title)
        if let withheld = withheldText(progress.resultsWithheldSessions) { lines.append("  " + withheld) }
        guard progress.lastAttempts.attemptCount > 0 else {
            // Every attempt withheld: the line above says why there is nothing to show.
            if progress.resultsWithheldSessions == 0 { lines.append("  Passive only so far: no taps, so no error to show.") }
            return lines
        }
        lines.append("  Typical error: \(errorText(progress.lastSevenDays)) last 7 days, \(errorText(progress.sevenDaysBefore)) the 7 days before → \(progress.trend.rawValue)")
        lines.append("  Time Acuity \(progress.timeAcuity.map(String.init) ?? "—") over the last \(progress.lastZones.count) attempt\(progress.lastZones.count == 1 ? "" : "s") · zones (oldest first) \(ZoneStrip.render(progress.lastZones))")
        let series = ProgressReport.acuitySeries(progress.daily, lastDay: today, dayCount: ProgressReport.intervalDays)
        lines.append("  Daily Time Acuity, \(ProgressReport.intervalDays) days: │" + series.sparkline(scaleMax: 100) + "│")
        return lines
    }

    /// The recent-sessions table shared by `progress` and `sessions`.
    public static func sessionTable(_ sessions: [ProgressReport.SessionLine]) -> [String] {
        let rows: [[String]] = [["Started", "Mode", "Interval", "Result", "Status", "Health log"]]
            + sessions.map { session in
                [session.startedAt.localMinuteText,
                 session.mode.rawValue, session.interval.description, resultText(session), session.status,
                 session.healthLog ?? "—"]
            }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        let notes = [nil] + sessions.map(\.note)
        return zip(rows, notes).flatMap { row, note in
            let line = "  " + row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
            // A session's note on its own line under it, so the columns keep their widths.
            return [line] + (note.map { ["    Note: " + TerminalSafeText.sanitized($0, keepNewlines: false)] } ?? [])
        }
    }

    static func resultText(_ session: ProgressReport.SessionLine) -> String {
        countsText(session) + (session.timingLateness.map { ", " + lateText($0) } ?? "")
    }

    /// The timing flag in words: "a mark 1501 ms late" (whole milliseconds, rounded up, so a flagged
    /// session never reads as within the 50 ms tolerance).
    public static func lateText(_ lateness: TimeSpan) -> String {
        "a mark \(Int(CueTiming.milliseconds(lateness).rounded(.up))) ms late"
    }

    /// "Results withheld for 2 sessions (a study block without feedback): counted, not in these figures."
    public static func withheldText(_ sessions: Int) -> String? {
        guard sessions > 0 else { return nil }
        return "Results withheld for \(sessions) session\(sessions == 1 ? "" : "s") (a study block without feedback): counted, not in these figures."
    }

    static func countsText(_ session: ProgressReport.SessionLine) -> String {
        if session.resultsWithheld {
            return "results withheld, \(session.doneCount)/\(session.plannedCount) attempts"
        }
        if session.mode.usesAttempts {
            guard let score = session.timeAcuityScore, session.doneCount > 0 else {
                return "\(session.doneCount)/\(session.plannedCount) attempts"
            }
            var text = "score \(score), \(session.doneCount)/\(session.plannedCount) attempts"
            if session.mode == .fear, session.fearSoundEffective == false { text += ", no sound" }
            return text
        }
        return "\(session.doneCount)/\(session.plannedCount) repetitions"
    }

    static func errorText(_ errors: ErrorAccumulator) -> String {
        errors.meanAbsErrorSeconds.map { DurationText.format(seconds: $0) } ?? "—"
    }

    static func percentText(_ share: Double) -> String {
        "\(Int((share * 100).rounded(.toNearestOrAwayFromZero))) %"
    }
}
