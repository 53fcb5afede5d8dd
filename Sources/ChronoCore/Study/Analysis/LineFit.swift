/// An ordinary least-squares line `y = intercept + slope·x` with the slope's 95 % confidence
/// interval from the t distribution (n − 2 df): the scalar property's fit (SD against mean, whose
/// slope is the Weber fraction) and the learning trend (error against session order). Pure.
public struct LineFit: Hashable, Sendable {
    /// How many points were fitted.
    public var points: Int
    public var slope: Estimate
    public var intercept: Double
    /// The share of y's variance the line explains; nil when y does not vary.
    public var rSquared: Double?

    /// The fit, or nil for fewer than two points or x without spread. The slope's interval needs
    /// three points (one degree of freedom for the residuals).
    public init?(x: [Double], y: [Double]) {
        guard x.count == y.count, x.count >= 2 else { return nil }
        let n = Double(x.count)
        let meanX = x.reduce(0, +) / n, meanY = y.reduce(0, +) / n
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        for (xi, yi) in zip(x, y) {
            sxx += (xi - meanX) * (xi - meanX)
            sxy += (xi - meanX) * (yi - meanY)
            syy += (yi - meanY) * (yi - meanY)
        }
        guard sxx > 0 else { return nil }
        let slope = sxy / sxx
        points = x.count
        intercept = meanY - slope * meanX
        var residuals = 0.0
        for (xi, yi) in zip(x, y) {
            let r = yi - (intercept + slope * xi)
            residuals += r * r
        }
        rSquared = syy > 0 ? 1 - residuals / syy : nil
        if x.count >= 3, let t = StudentT.quantile975(degreesOfFreedom: n - 2) {
            let error = (residuals / (n - 2) / sxx).squareRoot()
            self.slope = Estimate(value: slope, lower: slope - t * error, upper: slope + t * error)
        } else {
            self.slope = Estimate(value: slope, lower: nil, upper: nil)
        }
    }
}
