/// Time Acuity Score (SPEC §3): `round(100 × clamp(1 − E / 0.50, 0, 1))` with `E` the mean absolute
/// percent error as a fraction, rounded half away from zero. 5 % → 90, 10 % → 80, 25 % → 50, ≥ 50 % → 0.
public enum TimeAcuityScore {
    /// The error at which the score reaches zero.
    public static let zeroScoreError = 0.50

    public static func score(meanAbsPercentError error: Double) -> Int {
        let fraction = min(max(1 - error / zeroScoreError, 0), 1)
        return Int((100 * fraction).rounded(.toNearestOrAwayFromZero))
    }
}
