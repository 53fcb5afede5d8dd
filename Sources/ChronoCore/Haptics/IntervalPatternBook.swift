/// The assignment of interval patterns H(I) to intervals (SPEC §2).
///
/// Rules: patterns are unique among assigned intervals; an interval keeps its pattern once assigned
/// (a pattern that changes cannot be learned); new intervals are assigned in frecency order, each to the
/// simplest free pattern, so the most used intervals hold the simplest ones. Simplicity order: fewer
/// pulses first, then fewer long pulses, then short-before-long from the first pulse (S, L, SS, SL, LS,
/// LL, SSS, …), up to five pulses: 62 patterns. Only when all 62 are taken is one reclaimed, from the
/// assigned interval that ranks lowest by frecency (one no longer ranked at all goes first).
public struct IntervalPatternBook: Hashable, Sendable {
    /// The most pulses an interval pattern has: every pattern the book hands out, and so every pattern a
    /// session can hold (`SessionConfiguration` refuses a longer one, wherever it comes from).
    public static let maximumPulses = 5

    /// Whether a session can hold `pattern` as its interval pattern: short and long pulses only, at
    /// most `maximumPulses` of them. The one rule, for a configuration and for a stored row alike.
    public static func admits(_ pattern: HapticPattern) -> Bool {
        pattern.isIntervalPattern && pattern.elements.count <= maximumPulses
    }

    public private(set) var assignments: [TrainingInterval: HapticPattern]

    public init(assignments: [TrainingInterval: HapticPattern] = [:]) {
        self.assignments = assignments
    }

    /// Every interval pattern, simplest first.
    public static let candidates: [HapticPattern] = {
        var patterns: [HapticPattern] = []
        for length in 1...maximumPulses {
            var ofLength: [[HapticElement]] = [[]]
            for _ in 0..<length {
                ofLength = ofLength.flatMap { prefix in [prefix + [.short], prefix + [.long]] }
            }
            ofLength.sort { a, b in
                let longsA = a.filter { $0 == .long }.count
                let longsB = b.filter { $0 == .long }.count
                if longsA != longsB { return longsA < longsB }
                return a.map(\.rawValue).joined() > b.map(\.rawValue).joined()  // "S" > "L": short first
            }
            patterns += ofLength.map(HapticPattern.init)
        }
        return patterns
    }()

    public func pattern(for interval: TrainingInterval) -> HapticPattern? {
        assignments[interval]
    }

    /// Assigns patterns to the ranked intervals that have none, in rank order; returns the new ones.
    @discardableResult
    public mutating func assign(ranked intervals: [TrainingInterval]) -> [(TrainingInterval, HapticPattern)] {
        var added: [(TrainingInterval, HapticPattern)] = []
        for (rank, interval) in intervals.enumerated() where assignments[interval] == nil {
            let taken = Set(assignments.values)
            if let free = Self.candidates.first(where: { !taken.contains($0) }) {
                assignments[interval] = free
                added.append((interval, free))
            } else if let victim = reclaimableInterval(below: rank, in: intervals),
                      let reclaimed = assignments.removeValue(forKey: victim) {
                assignments[interval] = reclaimed
                added.append((interval, reclaimed))
            }
        }
        return added
    }

    /// The assigned interval that ranks lowest and below `rank`: one not ranked at all first.
    private func reclaimableInterval(below rank: Int, in intervals: [TrainingInterval]) -> TrainingInterval? {
        let ranked = Set(intervals)
        if let unranked = assignments.keys.sorted().first(where: { !ranked.contains($0) }) { return unranked }
        return intervals[(rank + 1)...].last { assignments[$0] != nil }
    }
}
