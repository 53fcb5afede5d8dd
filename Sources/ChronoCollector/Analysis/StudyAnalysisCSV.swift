import ChronoCore
import ChronoSync

/// The analysis as two CSV tables (`GET /api/v1/analysis.csv?table=cells|estimates`, `collector analysis
/// --csv cells|estimates`): one row per participant × group × target interval, or one per participant
/// × group with the Weber fraction, bias and learning trend and their 95 % intervals. Empty cells
/// are figures there are too few data for. Numbers at full precision, booleans TRUE/FALSE, so R's
/// `read.csv` and pandas' `read_csv` read them without options.
public enum StudyAnalysisCSV {
    public enum Table: String, CaseIterable, Sendable {
        case cells, estimates
    }

    static let groupColumns = ["participant", "protocol", "protocol_version", "condition", "mode"]
    public static let cellColumns = groupColumns + ["target_s", "n", "mean_s", "ratio", "sd_s", "cv", "mean_error_s", "mean_abs_error_s"]
    public static let estimateColumns = groupColumns + [
        "sessions", "attempts", "intervals", "weber_fraction", "weber_lower", "weber_upper", "scalar_intercept_s", "scalar_r_squared",
        "mean_cv", "bias", "bias_lower", "bias_upper", "learning_slope_per_session", "learning_lower", "learning_upper",
    ]

    public static func text(_ analysis: StudyAnalysis, table: Table) -> String {
        var text = CSVText.record(table == .cells ? cellColumns : estimateColumns)
        for participant in analysis.participants {
            for group in participant.groups {
                let front = [participant.participant, group.group.protocolName ?? "", group.group.protocolVersion.map(String.init) ?? "",
                             group.group.condition ?? "", group.group.mode]
                switch table {
                case .cells:
                    for cell in group.cells {
                        text += CSVText.record(front + [
                            number(Double(cell.targetNanoseconds) / 1e9), String(cell.count), number(cell.meanProducedSeconds), number(cell.ratio),
                            number(cell.standardDeviationSeconds), number(cell.coefficientOfVariation),
                            number(cell.meanSignedErrorSeconds), number(cell.meanAbsoluteErrorSeconds),
                        ])
                    }
                case .estimates:
                    let weber = group.scalarProperty, learning = group.learning
                    text += CSVText.record(front + [
                        String(group.sessions), String(group.attempts), String(group.cells.count),
                        number(weber?.slope.value), number(weber?.slope.lower), number(weber?.slope.upper),
                        number(weber?.intercept), number(weber?.rSquared), number(group.meanCoefficientOfVariation),
                        number(group.bias.value), number(group.bias.lower), number(group.bias.upper),
                        number(learning?.slope.value), number(learning?.slope.lower), number(learning?.slope.upper),
                    ])
                }
            }
        }
        return text
    }

    /// Swift's shortest exact spelling of the double (reads back to the same bits); empty for none.
    static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "" }
        return "\(value)"
    }
}
