/// The trend word of an interval (SPEC §5): the typical error of the last 7 days against the 7 days
/// before.
///
/// Tolerance: a change of at most 10 % of the earlier typical error (either way) is "About the same";
/// a lower error by more than that is "Improving", a higher one "Worse". The tolerance is relative
/// because a 2 s wobble is noise on a 30 min interval and a big step on a 10 s one. Without attempts
/// in both windows there is nothing to compare: "Not enough data".
public enum ProgressTrend: String, Hashable, Sendable {
    case improving = "Improving"
    case aboutTheSame = "About the same"
    case worse = "Worse"
    case notEnoughData = "Not enough data"

    /// Relative change of the typical error inside which the trend is "About the same".
    public static let tolerance = 0.10

    /// - Parameters:
    ///   - recent: typical error of the last 7 days, nil without attempts.
    ///   - earlier: typical error of the 7 days before, nil without attempts.
    public static func judge(recent: Double?, earlier: Double?) -> ProgressTrend {
        guard let recent, let earlier else { return .notEnoughData }
        if earlier == 0 { return recent == 0 ? .aboutTheSame : .worse }
        let change = (recent - earlier) / earlier
        if change < -tolerance { return .improving }
        if change > tolerance { return .worse }
        return .aboutTheSame
    }

    /// The machine-readable form used in `--json`.
    public var key: String {
        switch self {
        case .improving: return "improving"
        case .aboutTheSame: return "about_the_same"
        case .worse: return "worse"
        case .notEnoughData: return "not_enough_data"
        }
    }
}
