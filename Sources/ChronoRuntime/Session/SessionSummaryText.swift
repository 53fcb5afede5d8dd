import ChronoCore

/// The lines printed when a session ends (SPEC §2: "After the last attempt: the session summary").
/// Durations follow the display rule; errors are rounded to whole seconds for display only.
enum SessionSummaryText {
    static func lines(for outcome: SessionOutcome) -> [String] {
        switch outcome.status {
        case .aborted:
            return ["Session discarded. Nothing is logged."]
        case .interrupted:
            return ["Session interrupted\(outcome.reason.map { " (\($0))" } ?? ""). Nothing is logged."]
        case .completed:
            break
        }
        return completedLines(for: outcome) + (outcome.timingLateness.map {
            ["Timing: \(ProgressText.lateText($0)) (the program was stalled or stopped); the session keeps the real instants and is flagged."]
        } ?? [])
    }

    private static func completedLines(for outcome: SessionOutcome) -> [String] {
        if !outcome.mode.usesAttempts {
            let planned = outcome.configuration.plannedCount
            return ["Session complete: \(outcome.repetitionsDone) of \(planned) boundaries of \(outcome.configuration.interval), \(DurationText.format(magnitudeOf: outcome.endedAt - outcome.startedAt)) in all."]
        }
        let metrics = outcome.metrics
        guard outcome.configuration.feedback.isShown else {
            // Feedback withheld (a feedback-off study block): no error, bias or score.
            return ["Session complete: \(metrics.attemptCount) attempt\(metrics.attemptCount == 1 ? "" : "s") of \(outcome.configuration.interval) recorded."]
        }
        let bias = metrics.meanSignedErrorSeconds
        let biasText = DurationText.format(seconds: abs(bias)) == "0s"
            ? "no bias"
            : "bias \(bias > 0 ? "late" : "early") by \(DurationText.format(seconds: abs(bias)))"
        if outcome.mode == .reproduction {
            // Reproduction's own figure first: the mean ratio of reproduced to presented (1.00 is exact).
            let ratio = (metrics.meanRatio * 100).rounded() / 100
            let ratioText = String(Int(ratio)) + "." + String(Int((ratio * 100).rounded()) % 100 + 100).dropFirst()
            return ["Session complete: \(metrics.attemptCount) reproduction\(metrics.attemptCount == 1 ? "" : "s") of \(outcome.configuration.interval) · mean ratio \(ratioText) · typical error \(DurationText.format(seconds: metrics.meanAbsErrorSeconds)) · \(biasText) · Time Acuity \(metrics.timeAcuityScore)"]
        }
        var lines = [
            "Session complete: \(metrics.attemptCount) attempt\(metrics.attemptCount == 1 ? "" : "s") of \(outcome.configuration.interval) · typical error \(DurationText.format(seconds: metrics.meanAbsErrorSeconds)) · \(biasText) · Time Acuity \(metrics.timeAcuityScore)",
        ]
        if outcome.mode == .fear {
            lines.append(outcome.fearSoundEffective
                ? "Fear sound: effective (threshold \(Int((outcome.configuration.fearThreshold * 100).rounded())) %)."
                : "Fear sound: not effective — sound was disabled or lost, so this session behaved like Challenge (fear_sound_effective = false).")
        }
        return lines
    }
}
