import ChronoCore

/// The analysis's JSON (`GET /api/v1/analysis`, `collector analysis --json`): snake_case, durations
/// in seconds as full-precision numbers, targets also in nanoseconds, each interval as
/// `{"value", "lower", "upper"}` (bounds null when there are too few data).
public enum StudyAnalysisJSON {
    public static func report(_ analysis: StudyAnalysis) -> JSONValue {
        .object([("participants", .array(analysis.participants.map(participant)))])
    }

    static func participant(_ report: StudyAnalysis.ParticipantReport) -> JSONValue {
        .object([
            ("participant", .string(report.participant)),
            ("devices", .array(report.devices.map(JSONValue.string))),
            ("groups", .array(report.groups.map(group))),
            ("feedback", .array(report.feedback.map(feedback))),
        ])
    }

    static func group(_ report: StudyAnalysis.GroupReport) -> JSONValue {
        .object([
            ("protocol", report.group.protocolName.map(JSONValue.string) ?? .null),
            ("protocol_version", report.group.protocolVersion.map { .int($0) } ?? .null),
            ("condition", report.group.condition.map(JSONValue.string) ?? .null),
            ("mode", .string(report.group.mode)),
            ("sessions", .int(report.sessions)), ("attempts", .int(report.attempts)),
            ("cells", .array(report.cells.map(cell))),
            ("bias", estimate(report.bias)),
            ("weber_fraction", report.scalarProperty.map { estimate($0.slope) } ?? .null),
            ("scalar_fit", report.scalarProperty.map(fit) ?? .null),
            ("mean_cv", number(report.meanCoefficientOfVariation)),
            ("learning", report.learning.map(fit) ?? .null),
        ])
    }

    static func cell(_ cell: StudyAnalysis.Cell) -> JSONValue {
        .object([
            ("target_ns", .int(cell.targetNanoseconds)), ("target_s", .double(Double(cell.targetNanoseconds) / 1e9)),
            ("n", .int(cell.count)), ("mean_s", .double(cell.meanProducedSeconds)), ("ratio", .double(cell.ratio)),
            ("sd_s", number(cell.standardDeviationSeconds)), ("cv", number(cell.coefficientOfVariation)),
            ("mean_error_s", .double(cell.meanSignedErrorSeconds)), ("mean_abs_error_s", .double(cell.meanAbsoluteErrorSeconds)),
        ])
    }

    static func feedback(_ comparison: StudyAnalysis.FeedbackComparison) -> JSONValue {
        .object([
            ("mode", .string(comparison.mode)),
            ("shown_attempts", .int(comparison.shownAttempts)), ("withheld_attempts", .int(comparison.withheldAttempts)),
            ("abs_error_difference", estimate(comparison.absoluteErrorDifference)),
            ("bias_difference", estimate(comparison.biasDifference)),
        ])
    }

    static func fit(_ fit: LineFit) -> JSONValue {
        .object([
            ("points", .int(fit.points)), ("slope", estimate(fit.slope)), ("intercept", .double(fit.intercept)),
            ("r_squared", number(fit.rSquared)),
        ])
    }

    static func estimate(_ estimate: Estimate) -> JSONValue {
        .object([("value", .double(estimate.value)), ("lower", number(estimate.lower)), ("upper", number(estimate.upper))])
    }

    static func number(_ value: Double?) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        return .double(value)
    }
}
