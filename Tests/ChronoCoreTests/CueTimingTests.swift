import Testing
@testable import ChronoCore

/// Bullet 7 of issue 20 in the pure core: a time mark keeps the instant its cue really began, the
/// schedule stays absolute, and a cue later than the tolerance flags the session.
@Suite("Cue timing: real instants, absolute deadlines, the timing flag")
struct CueTimingTests {
    let at = SessionScript.at

    @Test("Late beyond the tolerance only: 50 ms exactly is on time, 1 ns more is late, early is never late")
    func tolerance() {
        let due = MonotonicInstant(nanoseconds: 10_000_000_000)
        #expect(CueTiming.tolerance == .milliseconds(50))
        #expect(CueTiming.lateness(due: due, began: due) == nil)
        #expect(CueTiming.lateness(due: due, began: due + .milliseconds(50)) == nil)
        #expect(CueTiming.lateness(due: due, began: due + .nanoseconds(50_000_001)) == .nanoseconds(50_000_001))
        #expect(CueTiming.lateness(due: due, began: due + .milliseconds(1500)) == .milliseconds(1500))
        #expect(CueTiming.lateness(due: due, began: due - .milliseconds(25)) == nil)
        #expect(CueTiming.worse(nil, nil) == nil)
        #expect(CueTiming.worse(.milliseconds(60), nil) == .milliseconds(60))
        #expect(CueTiming.worse(.milliseconds(60), .milliseconds(1500)) == .milliseconds(1500))
        #expect(CueTiming.milliseconds(.nanoseconds(1_500_123_456)) == 1500.123456)
    }

    @Test("A stall across boundary 2: each boundary keeps its real firing, dues stay k × interval, the session is flagged 1.5 s")
    func stalledBoundary() throws {
        var engine = SessionEngine(configuration: configuration(.passive, seconds: 10, count: 4), startedAt: .zero, soundAudible: true)
        _ = engine.begin()
        // Boundary 1 on time, reported before the engine reaches it (the loop fires first, then feeds).
        engine.cueBegan(.passiveBoundary, due: at(10), at: at(10.0002))
        _ = engine.handle(.deadline(now: at(10)))
        // Boundary 2: the process was stopped from 19.9 s to 21.5 s; the loop plays it late, whole.
        _ = engine.handle(.deadline(now: at(20)))
        engine.cueBegan(.passiveBoundary, due: at(20), at: at(21.5))
        #expect(engine.nextDeadline == at(30))   // absolute: not 31.5
        _ = engine.handle(.deadline(now: at(30)))
        engine.cueBegan(.passiveBoundary, due: at(30), at: at(30.0001))
        engine.cueBegan(.passiveBoundary, due: at(40), at: at(40.0003))
        _ = engine.handle(.deadline(now: at(40)))
        let outcome = try #require(engine.outcome)
        #expect(outcome.status == .completed)
        #expect(outcome.boundaries.map(\.due) == [at(10), at(20), at(30), at(40)])
        #expect(engine.boundariesFired == [at(10.0002), at(21.5), at(30.0001), at(40.0003)])
        #expect(outcome.timingLateness == .milliseconds(1500))
        #expect(outcome.endedAt == at(40))
    }

    @Test("Every boundary within the tolerance: no flag; the same firing reported twice counts once")
    func onTime() throws {
        var engine = SessionEngine(configuration: configuration(.passive, seconds: 10, count: 2), startedAt: .zero, soundAudible: true)
        _ = engine.begin()
        _ = engine.handle(.deadline(now: at(10)))
        engine.cueBegan(.passiveBoundary, due: at(10), at: at(10.05))
        engine.cueBegan(.passiveBoundary, due: at(10), at: at(11))   // not a second firing of boundary 1
        engine.cueBegan(.cue(.sessionDone), due: at(10), at: at(15))  // not a time mark
        engine.cueBegan(.passiveBoundary, due: at(20), at: at(20.001))
        _ = engine.handle(.deadline(now: at(20)))
        let outcome = try #require(engine.outcome)
        #expect(engine.boundariesFired == [at(10.05), at(20.001)])
        #expect(outcome.timingLateness == nil)
    }

    @Test("Nothing reported (replay, simulate): no firings, no flag, outcomes as before")
    func unreported() throws {
        var engine = SessionEngine(configuration: configuration(.passive, seconds: 10, count: 3), startedAt: .zero, soundAudible: true)
        _ = drive(&engine, [])
        #expect(engine.boundariesFired == [nil, nil, nil])
        #expect(engine.outcome?.timingLateness == nil)
    }

    @Test("Auto-start after a stall: the attempt counts from its start cue as felt (64.2 s), not the deadline (62.7 s); flagged 1.5 s")
    func autoStartLate() throws {
        var script = SessionScript()
        script.tap(1)
        script.tap(61, hold: 0.2)   // recognised at 61.2; feedback (1.5 s) until 62.7
        var engine = SessionEngine(configuration: configuration(.challenge, count: 2, autoStart: true), startedAt: .zero, soundAudible: true)
        _ = engine.begin()
        for event in script.events { _ = engine.handle(event) }
        let cueDue = try #require(engine.handle(.deadline(now: at(62.7))).startCueDue)
        engine.cueBegan(.cue(.start), due: cueDue, at: at(64.2))
        #expect(engine.phase == .attemptRunning(attempt: 2, startMark: at(64.2)))
        _ = engine.handle(.button(RawButtonEdge(pressed: true, at: at(125))))
        _ = engine.handle(.button(RawButtonEdge(pressed: false, at: at(125.1))))
        let outcome = try #require(engine.outcome)
        #expect(outcome.attempts.map(\.startMark) == [at(1), at(64.2)])
        #expect(outcome.attempts[1].elapsedSeconds == 60.8)
        #expect(outcome.timingLateness == .milliseconds(1500))
    }

    @Test("Auto-start on time, reported before the deadline is fed: the mark is the cue's real start; no flag")
    func autoStartOnTime() throws {
        var script = SessionScript()
        script.tap(1)
        script.tap(61, hold: 0.2)
        var engine = SessionEngine(configuration: configuration(.challenge, count: 2, autoStart: true), startedAt: .zero, soundAudible: true)
        _ = engine.begin()
        for event in script.events { _ = engine.handle(event) }
        // As the loop does: a copy says which cue the deadline will ask for; it begins; then the deadline.
        var lookahead = engine
        let cueDue = try #require(lookahead.handle(.deadline(now: at(62.7))).startCueDue)
        engine.cueBegan(.cue(.start), due: cueDue, at: at(62.7002))
        let effects = engine.handle(.deadline(now: at(62.7)))
        #expect(effects.contains(.attemptStarted(attempt: 2, startMark: at(62.7002), at: at(62.7))))
        _ = engine.handle(.endRequested(at: at(70)))
        #expect(engine.timingLateness == nil)
    }

    @Test("A start cue after a press does not move the press's mark: the press is the mark")
    func pressedStart() throws {
        var script = SessionScript()
        script.tap(1)
        var engine = SessionEngine(configuration: configuration(.challenge, count: 1, autoStart: true), startedAt: .zero, soundAudible: true)
        _ = engine.begin()
        for event in script.events { _ = engine.handle(event) }
        let cueDue = try #require(engine.phase == .attemptRunning(attempt: 1, startMark: at(1)) ? at(1.1) : nil)
        engine.cueBegan(.cue(.start), due: cueDue, at: at(3))
        #expect(engine.phase == .attemptRunning(attempt: 1, startMark: at(1)))
        #expect(engine.timingLateness == nil)
    }
}

private extension Array where Element == SessionEffect {
    /// The instant the start cue among these effects was asked for.
    var startCueDue: MonotonicInstant? {
        for case .motor(_, let label, let due) in self where label == .cue(.start) { return due }
        return nil
    }
}
