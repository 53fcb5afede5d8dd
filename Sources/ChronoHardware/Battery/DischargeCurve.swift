/// A battery's voltage-to-charge curve, for boards that only measure the voltage (a UPS HAT through
/// hwmon): points of millivolts and percent from the board file, strictly rising in both; a voltage
/// between two points is interpolated (rounded down), beyond the ends it is the end point's percent.
public struct DischargeCurve: Hashable, Sendable {
    /// One point of the curve.
    public struct Point: Hashable, Sendable {
        public var millivolts: Int
        public var percent: Int

        public init(millivolts: Int, percent: Int) {
            self.millivolts = millivolts
            self.percent = percent
        }
    }

    public let points: [Point]

    /// Two points at least, and at most 32 (a curve is a handful).
    public static let pointCount = 2...32

    /// Nil unless there are 2 to 32 points, rising strictly in millivolts and in percent, percents within 0...100.
    public init?(_ points: [Point]) {
        guard Self.pointCount.contains(points.count),
              points.allSatisfy({ BatterySample.percentRange.contains($0.percent) && BatterySample.millivoltRange.contains($0.millivolts) }),
              zip(points, points.dropFirst()).allSatisfy({ $0.millivolts < $1.millivolts && $0.percent < $1.percent }) else { return nil }
        self.points = points
    }

    /// The charge at `millivolts`, rounded down to whole percent.
    public func percent(atMillivolts millivolts: Int) -> Int {
        guard let first = points.first, let last = points.last else { return 0 }
        if millivolts <= first.millivolts { return first.percent }
        if millivolts >= last.millivolts { return last.percent }
        guard let upperIndex = points.firstIndex(where: { $0.millivolts >= millivolts }) else { return last.percent }
        let lower = points[upperIndex - 1], upper = points[upperIndex]
        return lower.percent + (upper.percent - lower.percent) * (millivolts - lower.millivolts) / (upper.millivolts - lower.millivolts)
    }
}
