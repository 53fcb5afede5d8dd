/// Frecency ranking of presets (SPEC §1): frequency and recency of use together.
///
/// Formula: each use of an interval contributes `0.5 ^ (age / 14 days)`, where `age` is
/// `now − used_at` in seconds (a use stamped in the future counts as age 0, weight 1); an interval's
/// score is the sum over its uses. Ten uses a fortnight ago weigh as much as five today.
/// Ties: higher score first, then the more recent last use, then the shorter interval.
/// The built-in 5m 0s preset is always listed, with score 0 if it was never used.
/// Deterministic given `now`: no clock is read here.
public enum Frecency {
    public static let halfLifeSeconds: Double = 14 * 86_400

    /// The weight of one use of a given age.
    public static func weight(ageSeconds: Double) -> Double {
        pow2(-max(ageSeconds, 0) / halfLifeSeconds)
    }

    /// Ranks every interval that has been used, plus the built-in preset.
    public static func rank(uses: [PresetUse], nowUnixSeconds: Int64) -> [RankedPreset] {
        // A handful of intervals against thousands of uses: a linear search of the few entries costs
        // less than hashing every use.
        var ranked = [RankedPreset(interval: .builtInPreset, score: 0, useCount: 0, lastUsedUnixSeconds: nil)]
        var last = 0
        for use in uses {
            if ranked[last].interval != use.interval {
                if let found = ranked.firstIndex(where: { $0.interval == use.interval }) {
                    last = found
                } else {
                    ranked.append(RankedPreset(interval: use.interval, score: 0, useCount: 0, lastUsedUnixSeconds: nil))
                    last = ranked.count - 1
                }
            }
            ranked[last].score += weight(ageSeconds: Double(nowUnixSeconds - use.usedAtUnixSeconds))
            ranked[last].useCount += 1
            ranked[last].lastUsedUnixSeconds = max(ranked[last].lastUsedUnixSeconds ?? Int64.min, use.usedAtUnixSeconds)
        }
        return ranked.sorted(by: RankedPreset.ranksBefore)
    }
}

/// One use of an interval: a session of any mode that was started with it.
public struct PresetUse: Hashable, Sendable {
    public var interval: TrainingInterval
    public var usedAtUnixSeconds: Int64

    public init(interval: TrainingInterval, usedAtUnixSeconds: Int64) {
        self.interval = interval
        self.usedAtUnixSeconds = usedAtUnixSeconds
    }
}

/// A preset with its frecency score, as listed to the user.
public struct RankedPreset: Hashable, Sendable {
    public var interval: TrainingInterval
    public var score: Double
    public var useCount: Int
    public var lastUsedUnixSeconds: Int64?

    public init(interval: TrainingInterval, score: Double, useCount: Int, lastUsedUnixSeconds: Int64?) {
        self.interval = interval
        self.score = score
        self.useCount = useCount
        self.lastUsedUnixSeconds = lastUsedUnixSeconds
    }

    static func ranksBefore(_ a: RankedPreset, _ b: RankedPreset) -> Bool {
        if a.score != b.score { return a.score > b.score }
        let aLast = a.lastUsedUnixSeconds ?? Int64.min
        let bLast = b.lastUsedUnixSeconds ?? Int64.min
        if aLast != bLast { return aLast > bLast }
        return a.interval < b.interval
    }
}

/// `2^x` for x ≤ 0 without Foundation: split into an integer power and `e^(f·ln 2)` by series.
func pow2(_ exponent: Double) -> Double {
    if exponent < -1000 { return 0 }
    let whole = exponent.rounded(.down)
    let fraction = exponent - whole  // in [0, 1)
    // e^y with y = fraction·ln2 in [0, 0.694): the Taylor series converges to full precision in 20 terms.
    let y = fraction * 0.693_147_180_559_945_3
    var term = 1.0
    var sum = 1.0
    for k in 1...20 {
        term *= y / Double(k)
        sum += term
    }
    return sum * Double(sign: .plus, exponent: Int(whole), significand: 1.0)
}
