/// Count, mean and sample standard deviation of some values, computed in two passes (the mean
/// first, then the squared deviations from it) so long runs of large, nearly equal values keep their
/// precision. Pure.
public struct Summary: Hashable, Sendable {
    public var count: Int
    public var mean: Double
    /// The sample standard deviation (n − 1); nil for fewer than two values.
    public var standardDeviation: Double?

    public init(_ values: [Double]) {
        count = values.count
        mean = values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
        if values.count >= 2 {
            let m = mean
            let squares = values.reduce(0) { $0 + ($1 - m) * ($1 - m) }
            standardDeviation = (squares / Double(values.count - 1)).squareRoot()
        } else {
            standardDeviation = nil
        }
    }

    /// The standard error of the mean; nil for fewer than two values.
    public var standardError: Double? { standardDeviation.map { $0 / Double(count).squareRoot() } }

    /// The mean with its 95 % confidence interval from the t distribution (n − 1 df).
    public var meanEstimate: Estimate {
        guard let error = standardError, let t = StudentT.quantile975(degreesOfFreedom: Double(count - 1)) else {
            return Estimate(value: mean, lower: nil, upper: nil)
        }
        return Estimate(value: mean, lower: mean - t * error, upper: mean + t * error)
    }
}

/// A figure with its 95 % confidence interval (both bounds nil when there are too few data for one).
public struct Estimate: Hashable, Sendable {
    public var value: Double
    public var lower: Double?
    public var upper: Double?

    public init(value: Double, lower: Double?, upper: Double?) {
        self.value = value
        self.lower = lower
        self.upper = upper
    }

    /// Whether `truth` lies inside the interval (false when there is none).
    public func covers(_ truth: Double) -> Bool {
        guard let lower, let upper else { return false }
        return lower <= truth && truth <= upper
    }

    /// The difference of two independent means with Welch's interval (unequal variances,
    /// Welch–Satterthwaite degrees of freedom): `a − b`. Nil bounds when either side has fewer
    /// than two values or both have no spread.
    public static func welchDifference(_ a: Summary, _ b: Summary) -> Estimate {
        let difference = a.mean - b.mean
        guard let sa = a.standardDeviation, let sb = b.standardDeviation else { return Estimate(value: difference, lower: nil, upper: nil) }
        let va = sa * sa / Double(a.count), vb = sb * sb / Double(b.count)
        let variance = va + vb
        guard variance > 0 else { return Estimate(value: difference, lower: nil, upper: nil) }
        let df = variance * variance / (va * va / Double(a.count - 1) + vb * vb / Double(b.count - 1))
        guard let t = StudentT.quantile975(degreesOfFreedom: df) else { return Estimate(value: difference, lower: nil, upper: nil) }
        let half = t * variance.squareRoot()
        return Estimate(value: difference, lower: difference - half, upper: difference + half)
    }
}
