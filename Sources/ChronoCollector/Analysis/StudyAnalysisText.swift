import ChronoCore

/// The analysis for a terminal (`collector analysis`): per participant and group, the estimates on one
/// line, then one line per interval. Names that came from devices are made terminal-safe. Pure.
public enum StudyAnalysisText {
    public static func lines(_ analysis: StudyAnalysis) -> [String] {
        guard !analysis.participants.isEmpty else { return ["No timed attempts yet: the analysis needs Challenge, Fear or Reproduction sessions."] }
        var lines: [String] = []
        for participant in analysis.participants {
            let name = TerminalSafeText.sanitized(participant.participant, keepNewlines: false)
            for group in participant.groups {
                lines.append("\(name) · \(groupName(group.group)): \(group.sessions) session\(group.sessions == 1 ? "" : "s"), \(group.attempts) attempt\(group.attempts == 1 ? "" : "s")")
                var figures: [String] = []
                if let fit = group.scalarProperty { figures.append("Weber fraction \(fixed(fit.slope.value, 3))\(interval(fit.slope, 3))") }
                figures.append("bias \(percent(group.bias.value))\(interval(group.bias, percent: true, unit: "%"))")
                if let learning = group.learning { figures.append("learning \(signed(learning.slope.value * 100, 2)) points of |error| per session\(interval(learning.slope, percent: true))") }
                lines.append("  " + figures.joined(separator: " · "))
                for cell in group.cells {
                    var text = "  \(DurationText.format(magnitudeOf: TimeSpan(nanoseconds: cell.targetNanoseconds))): n \(cell.count), mean \(fixed(cell.meanProducedSeconds, 3)) s, ratio \(fixed(cell.ratio, 3))"
                    if let sd = cell.standardDeviationSeconds, let cv = cell.coefficientOfVariation { text += ", SD \(fixed(sd, 3)) s, CV \(fixed(cv, 3))" }
                    lines.append(text)
                }
            }
            for comparison in participant.feedback {
                lines.append("\(name) · \(comparison.mode), feedback withheld − shown: |error| \(signed(comparison.absoluteErrorDifference.value * 100, 2)) points\(interval(comparison.absoluteErrorDifference, percent: true)), bias \(signed(comparison.biasDifference.value * 100, 2)) points\(interval(comparison.biasDifference, percent: true))")
            }
        }
        return lines
    }

    /// `sleep-2026 v1 · baseline · reproduction`, or `challenge, outside a study`.
    public static func groupName(_ group: AnalysisGroup) -> String {
        guard let name = group.protocolName else { return "\(group.mode), outside a study" }
        var parts = [TerminalSafeText.sanitized(name, keepNewlines: false) + (group.protocolVersion.map { " v\($0)" } ?? "")]
        if let condition = group.condition { parts.append(TerminalSafeText.sanitized(condition, keepNewlines: false)) }
        parts.append(group.mode)
        return parts.joined(separator: " · ")
    }

    /// ` (95% CI a to b)`; `percent` shows fractions as signed hundredths, followed by `unit`.
    static func interval(_ estimate: Estimate, _ digits: Int = 3, percent: Bool = false, unit: String = "") -> String {
        guard let lower = estimate.lower, let upper = estimate.upper else { return "" }
        return percent ? " (95% CI \(signed(lower * 100, 2))\(unit) to \(signed(upper * 100, 2))\(unit))" : " (95% CI \(fixed(lower, digits)) to \(fixed(upper, digits)))"
    }

    static func percent(_ value: Double) -> String { signed(value * 100, 2) + "%" }

    static func signed(_ value: Double, _ digits: Int) -> String { (value >= 0 ? "+" : "−") + fixed(abs(value), digits) }

    /// `value` rounded to `digits` decimals, for display only (every figure is computed unrounded).
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "—" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int64(scaled / scale)
        var fraction = String(Int64(scaled) - whole * Int64(scale))
        while fraction.count < digits { fraction = "0" + fraction }
        return (value < 0 && scaled > 0 ? "-" : "") + String(whole) + (digits > 0 ? "." + fraction : "")
    }
}
