/// Percentiles of a list of wake-up latencies, in microseconds (nearest-rank: the value at rank
/// ⌈p × n⌉ of the sorted list, so p99.9 of 2000 samples is the 1998th).
public struct LatencySummary: Sendable, Equatable {
    public var count: Int
    public var p50: Double
    public var p99: Double
    public var p999: Double
    public var max: Double
    public var min: Double

    public init(microseconds samples: [Double]) {
        let sorted = samples.sorted()
        count = sorted.count
        func rank(_ fraction: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let index = Swift.min(sorted.count - 1, Swift.max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))
            return sorted[index]
        }
        p50 = rank(0.50)
        p99 = rank(0.99)
        p999 = rank(0.999)
        max = sorted.last ?? 0
        min = sorted.first ?? 0
    }
}
