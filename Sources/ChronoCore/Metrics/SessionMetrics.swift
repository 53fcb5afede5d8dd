/// The session-level numbers of SPEC §3 over a list of attempts.
public struct SessionMetrics: Hashable, Sendable {
    public let attemptCount: Int
    public let meanAbsErrorSeconds: Double
    /// The bias: positive means the user tends to tap late.
    public let meanSignedErrorSeconds: Double
    /// Sample standard deviation (n − 1) of the signed errors; 0 for a single attempt.
    public let stdDevErrorSeconds: Double
    public let meanAbsPercentError: Double
    public let timeAcuityScore: Int
    /// The mean of the attempts' `ratio` (elapsed or reproduced over the target); 0 without attempts.
    /// Reproduction's `mean_ratio`.
    public let meanRatio: Double

    public init(attempts: [AttemptMeasurement]) {
        let count = attempts.count
        attemptCount = count
        guard count > 0 else {
            meanAbsErrorSeconds = 0
            meanSignedErrorSeconds = 0
            stdDevErrorSeconds = 0
            meanAbsPercentError = 0
            timeAcuityScore = 0  // no attempt, no evidence of acuity
            meanRatio = 0
            return
        }
        let signedErrors = attempts.map(\.signedErrorSeconds)
        let n = Double(count)
        meanAbsErrorSeconds = attempts.map(\.absErrorSeconds).reduce(0, +) / n
        let mean = signedErrors.reduce(0, +) / n
        meanSignedErrorSeconds = mean
        if count > 1 {
            let squaredDeviations = signedErrors.map { ($0 - mean) * ($0 - mean) }.reduce(0, +)
            stdDevErrorSeconds = (squaredDeviations / (n - 1)).squareRoot()
        } else {
            stdDevErrorSeconds = 0
        }
        meanAbsPercentError = attempts.map(\.absPercentError).reduce(0, +) / n
        timeAcuityScore = TimeAcuityScore.score(meanAbsPercentError: meanAbsPercentError)
        meanRatio = attempts.map(\.ratio).reduce(0, +) / n
    }
}
