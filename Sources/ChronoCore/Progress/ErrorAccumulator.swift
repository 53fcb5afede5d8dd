/// Sums of attempt errors over a set of attempts, so that a mean over attempts can be formed from
/// session-level sums without reading every attempt: the typical error of a window is the mean
/// absolute error of its attempts, not the mean of session means.
public struct ErrorAccumulator: Hashable, Sendable {
    public var attemptCount: Int
    public var absErrorSecondsSum: Double
    public var absPercentErrorSum: Double

    public init(attemptCount: Int = 0, absErrorSecondsSum: Double = 0, absPercentErrorSum: Double = 0) {
        self.attemptCount = attemptCount
        self.absErrorSecondsSum = absErrorSecondsSum
        self.absPercentErrorSum = absPercentErrorSum
    }

    /// Adds one session's attempts through its metrics (means × count gives back the sums).
    public mutating func add(_ metrics: SessionMetrics) {
        let count = Double(metrics.attemptCount)
        attemptCount += metrics.attemptCount
        absErrorSecondsSum += metrics.meanAbsErrorSeconds * count
        absPercentErrorSum += metrics.meanAbsPercentError * count
    }

    public mutating func add(_ other: ErrorAccumulator) {
        attemptCount += other.attemptCount
        absErrorSecondsSum += other.absErrorSecondsSum
        absPercentErrorSum += other.absPercentErrorSum
    }

    /// Mean absolute error in seconds (the "typical error"); nil without attempts.
    public var meanAbsErrorSeconds: Double? {
        attemptCount > 0 ? absErrorSecondsSum / Double(attemptCount) : nil
    }

    public var meanAbsPercentError: Double? {
        attemptCount > 0 ? absPercentErrorSum / Double(attemptCount) : nil
    }

    /// The Time Acuity Score of these attempts; nil without attempts.
    public var timeAcuityScore: Int? {
        meanAbsPercentError.map { TimeAcuityScore.score(meanAbsPercentError: $0) }
    }
}
