import ChronoCore
import ChronoRuntime
import Testing

@Suite("The loopback self-test's analysis: switches paired with the input's edges")
struct LoopbackAnalysisTests {
    static let ms: Int64 = 1_000_000
    static func at(_ microseconds: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: microseconds * 1000) }

    /// Two pulses: on at 0 and 20 ms, off at 10 and 30 ms.
    static let switches: [LoopbackAnalysis.Switch] = [
        .init(on: true, due: at(0)), .init(on: false, due: at(10_000)),
        .init(on: true, due: at(20_000)), .init(on: false, due: at(30_000)),
    ]

    func edge(_ active: Bool, _ stamped: Int64, _ handled: Int64) -> LoopbackAnalysis.Edge {
        .init(active: active, stamped: Self.at(stamped), handled: Self.at(handled))
    }

    @Test("each switch's edge gives deadline → edge and edge → handling, in microseconds")
    func measured() {
        let edges = [edge(true, 60, 100), edge(false, 10_070, 10_090), edge(true, 20_040, 20_140), edge(false, 30_080, 30_110)]
        guard case .measured(let toEdge, let toHandling) = LoopbackAnalysis(switches: Self.switches, edges: edges).outcome else {
            Issue.record("not measured")
            return
        }
        #expect(toEdge == LatencySummary(microseconds: [60, 70, 40, 80]))
        #expect((toEdge.p50, toEdge.max, toEdge.min) == (60, 80, 40))
        #expect(toHandling == LatencySummary(microseconds: [40, 20, 100, 30]))
        #expect((toHandling.p50, toHandling.max) == (30, 100))
    }

    @Test("edges read out of order are paired by their stamps")
    func outOfOrder() {
        let edges = [edge(false, 30_080, 30_110), edge(true, 60, 100), edge(true, 20_040, 20_140), edge(false, 10_070, 10_090)]
        guard case .measured(let toEdge, _) = LoopbackAnalysis(switches: Self.switches, edges: edges).outcome else {
            Issue.record("not measured")
            return
        }
        #expect(toEdge == LatencySummary(microseconds: [60, 70, 40, 80]))
    }

    @Test("no edge at all is the missing jumper")
    func noJumper() {
        #expect(LoopbackAnalysis(switches: Self.switches, edges: []).outcome == .noEdges(switches: 4))
    }

    @Test("every switch back with the opposite sense is an inverted line")
    func inverted() {
        let edges = [edge(false, 60, 100), edge(true, 10_070, 10_090), edge(false, 20_040, 20_140), edge(true, 30_080, 30_110)]
        #expect(LoopbackAnalysis(switches: Self.switches, edges: edges).outcome == .inverted)
    }

    @Test("a missing edge, an edge before its switch or a bounce is not a measurement")
    func unrelated() {
        // The second pulse never came back.
        let missing = [edge(true, 60, 100), edge(false, 10_070, 10_090)]
        #expect(LoopbackAnalysis(switches: Self.switches, edges: missing).outcome == .unrelated(matched: 2, switches: 4, extra: 0))
        // A bounce: an extra inactive/active pair inside the first pulse.
        let bouncing = [edge(true, 60, 100), edge(false, 200, 300), edge(true, 400, 500), edge(false, 10_070, 10_090),
                        edge(true, 20_040, 20_140), edge(false, 30_080, 30_110)]
        #expect(LoopbackAnalysis(switches: Self.switches, edges: bouncing).outcome == .unrelated(matched: 4, switches: 4, extra: 2))
        // Another output's edges, each a little before the motor's switches: nothing follows them.
        let early = [edge(true, -5, 0), edge(false, 9_990, 10_000), edge(true, 19_990, 20_000), edge(false, 29_990, 30_000)]
        #expect(LoopbackAnalysis(switches: Self.switches, edges: early).outcome == .unrelated(matched: 0, switches: 4, extra: 4))
    }
}
