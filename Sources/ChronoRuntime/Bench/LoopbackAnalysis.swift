import ChronoCore

/// What `board check --loopback` concludes from one run, with the motor line jumpered to the loopback
/// input: each switch of the motor line that was due at a deadline is paired with the input edge it
/// caused, and the pairs give two latencies — deadline → the edge's kernel timestamp (the loop's
/// wake-up, the driver's call and the wire), and the edge's timestamp → the loop's handling of it.
///
/// Pure: it takes the planned switches and the edges the loop saw as values, so the wrong-jumper and
/// no-jumper cases are tested without hardware.
public struct LoopbackAnalysis: Sendable, Equatable {
    /// One planned switch of the motor line: on (the line goes active) or off, due at `due`.
    public struct Switch: Sendable, Equatable {
        public var on: Bool
        public var due: MonotonicInstant
        public init(on: Bool, due: MonotonicInstant) {
            self.on = on
            self.due = due
        }
    }

    /// One edge the loop handled on the loopback input: the kernel's timestamp and the loop's clock read
    /// when the loop handled it.
    public struct Edge: Sendable, Equatable {
        public var active: Bool
        public var stamped: MonotonicInstant
        public var handled: MonotonicInstant
        public init(active: Bool, stamped: MonotonicInstant, handled: MonotonicInstant) {
            self.active = active
            self.stamped = stamped
            self.handled = handled
        }
    }

    /// The verdict.
    public enum Outcome: Sendable, Equatable {
        /// Every switch came back as its edge, and nothing else came: the figures stand.
        case measured(deadlineToEdge: LatencySummary, edgeToHandling: LatencySummary)
        /// The input saw no edge at all: no jumper, or a jumper on other pins.
        case noEdges(switches: Int)
        /// The input's edges follow the motor's switches inverted (on came back as inactive): the
        /// loopback line's `active_low` disagrees with the motor's, or the wire goes through an inverter.
        case inverted
        /// Edges came but do not follow the switches: a loose jumper, another output, a floating line.
        case unrelated(matched: Int, switches: Int, extra: Int)
    }

    public let outcome: Outcome

    /// Pairs each switch with the first edge of its direction stamped at or after it and before the
    /// next switch. Every switch must be matched and no edge left over for the figures to stand.
    public init(switches: [Switch], edges: [Edge]) {
        guard !edges.isEmpty else {
            outcome = .noEdges(switches: switches.count)
            return
        }
        let straight = Self.pair(switches, edges, inverted: false)
        if straight.pairs.count == switches.count, straight.extra == 0 {
            outcome = .measured(
                deadlineToEdge: LatencySummary(microseconds: straight.pairs.map { Double(($0.edge.stamped - $0.due).nanoseconds) / 1000 }),
                edgeToHandling: LatencySummary(microseconds: straight.pairs.map { Double(($0.edge.handled - $0.edge.stamped).nanoseconds) / 1000 }))
            return
        }
        let flipped = Self.pair(switches, edges, inverted: true)
        if flipped.pairs.count == switches.count, flipped.extra == 0 {
            outcome = .inverted
            return
        }
        outcome = .unrelated(matched: straight.pairs.count, switches: switches.count, extra: straight.extra)
    }

    private static func pair(_ switches: [Switch], _ edges: [Edge], inverted: Bool)
        -> (pairs: [(due: MonotonicInstant, edge: Edge)], extra: Int) {
        let sorted = edges.sorted { $0.stamped < $1.stamped }
        var used = Array(repeating: false, count: sorted.count)
        var pairs: [(due: MonotonicInstant, edge: Edge)] = []
        var cursor = 0
        for (index, planned) in switches.enumerated() {
            let next = index + 1 < switches.count ? switches[index + 1].due : nil
            while cursor < sorted.count && sorted[cursor].stamped < planned.due { cursor += 1 }
            var candidate = cursor
            while candidate < sorted.count, next.map({ sorted[candidate].stamped < $0 }) ?? true {
                if sorted[candidate].active == (planned.on != inverted) {
                    pairs.append((planned.due, sorted[candidate]))
                    used[candidate] = true
                    cursor = candidate + 1
                    break
                }
                candidate += 1
            }
        }
        return (pairs, used.filter { !$0 }.count)
    }
}
