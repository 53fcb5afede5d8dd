/// The order a block's sessions take its intervals: the pure, reproducible part of a plan. Shuffles
/// draw from SplitMix64 (Steele, Lea and Flood 2014), a generator with a one-line state that any
/// language re-implements exactly, so an analysis can rebuild a participant's order from the
/// recorded seed.
public enum StudyOrder {
    /// The interval indexes of a block's `sessions` sessions.
    ///
    /// - fixed: 0, 1, …, n−1, 0, 1, … (the listed order, cycled).
    /// - shuffled: each pass through the list is a Fisher–Yates permutation drawn from
    ///   `StudyRandom(seed: seed ^ ((blockIndex + 1) × 0x9E3779B97F4A7C15))`.
    /// - counterbalanced: row `participantIndex mod rows` of the balanced Latin square
    ///   (`balancedLatinSquareRow`), cycled.
    public static func indexes(count n: Int, sessions: Int, order: StudyProtocol.IntervalOrder, seed: Int64,
                               blockIndex: Int, participantIndex: Int) -> [Int] {
        guard n > 0, sessions > 0 else { return [] }
        switch order {
        case .fixed:
            return (0..<sessions).map { $0 % n }
        case .counterbalanced:
            let row = balancedLatinSquareRow(count: n, participantIndex: participantIndex)
            return (0..<sessions).map { row[$0 % n] }
        case .shuffled:
            var generator = StudyRandom(seed: UInt64(bitPattern: seed) ^ (UInt64(blockIndex + 1) &* 0x9E37_79B9_7F4A_7C15))
            var result: [Int] = []
            result.reserveCapacity(sessions)
            while result.count < sessions {
                var pass = Array(0..<n)
                // Fisher–Yates from the end: swap position i with a uniform j in 0...i.
                for i in stride(from: n - 1, to: 0, by: -1) {
                    let j = Int(generator.next(below: UInt64(i + 1)))
                    pass.swapAt(i, j)
                }
                result.append(contentsOf: pass.prefix(sessions - result.count))
            }
            return result
        }
    }

    /// The rows of a balanced Latin square (Williams 1949) of `n` conditions: `n` rows when `n` is
    /// even, `2n` when odd (the second `n` are the first reversed). Across all rows each condition is
    /// at each place, and follows each other condition, equally often.
    public static func latinSquareRows(count n: Int) -> Int { n % 2 == 0 ? n : 2 * n }

    /// Row `participantIndex mod rows`: the first row is 0, 1, n−1, 2, n−2, …; row r adds r (mod n)
    /// to each entry; for odd n rows n…2n−1 are rows 0…n−1 reversed.
    public static func balancedLatinSquareRow(count n: Int, participantIndex: Int) -> [Int] {
        guard n > 0 else { return [] }
        let rows = latinSquareRows(count: n)
        let row = ((participantIndex % rows) + rows) % rows
        let first = (0..<n).map { j in j == 0 ? 0 : (j % 2 == 1 ? (j + 1) / 2 : n - j / 2) }
        let shifted = first.map { ($0 + row % n) % n }
        return row < n ? shifted : Array(shifted.reversed())
    }
}

/// SplitMix64 for study orders (the simulator has its own generator, ChronoSimulation.SplitMix64): `state += 0x9E3779B97F4A7C15`, then two xor-shift-multiply rounds. Public so tests and
/// analyses rebuild a shuffle from its seed.
public struct StudyRandom: Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in 0..<bound by Lemire's multiply-shift (the high word of next() × bound); bias below
    /// 2⁻⁵⁰ for the bounds a block has, and exact to re-implement.
    public mutating func next(below bound: UInt64) -> UInt64 {
        next().multipliedFullWidth(by: bound).high
    }
}
