import ChronoCore

/// The person's timing as a researcher states it: a Weber fraction W (the SD of their produced
/// durations over the mean) and a bias B as the mean ratio of produced to target duration, so a
/// target T is produced as Normal(B·T, W·B·T). `SimulatedParticipant` keeps the bias as B − 1.
extension SimulatedParticipant {
    /// A person with Weber fraction `weberFraction` and mean ratio `meanRatio` (1: no bias).
    public init(weberFraction: Double, meanRatio: Double) {
        self.init(weberFraction: weberFraction, bias: meanRatio - 1)
    }

    /// B: the mean of produced over target duration.
    public var meanRatio: Double { 1 + bias }

    /// One produced (or reproduced) duration for `interval`: B·T·(1 + W·g), g standard normal
    /// (`SplitMix64.nextGaussian`), so Normal(B·T, W·B·T); never below `minimum` (a press needs time).
    public func producedDuration(for interval: TrainingInterval, minimum: TimeSpan = .milliseconds(500),
                                 using random: inout SplitMix64) -> TimeSpan {
        let mean = meanRatio * Double(interval.span.nanoseconds)
        let produced = mean * (1 + weberFraction * random.nextGaussian())
        return max(TimeSpan(nanoseconds: Int64(produced.rounded())), minimum)
    }

    /// Reproduction: when the presented interval of an attempt that began at `attemptStart` ends (its
    /// second mark): attempt 1 begins at the session start, attempt k + 1 when attempt k's feedback
    /// ends (the release of its end press plus the feedback duration). A press before this is ignored.
    public static func presentationEnd(attemptStart: MonotonicInstant, interval: TrainingInterval) -> MonotonicInstant {
        attemptStart + SessionEngine.presentationDelay + interval.span
    }
}
