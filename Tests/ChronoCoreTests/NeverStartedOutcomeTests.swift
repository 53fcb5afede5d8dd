import Testing
@testable import ChronoCore

/// A session is never started until the person's first press: ended before it, the engine's outcome
/// records nothing (`recordsNothing`); ended after it, or a Passive session, it is kept (issue 33).
@Suite("Never-started sessions: the engine marks an end before the first press")
struct NeverStartedOutcomeTests {
    let at = SessionScript.at

    @Test("a Challenge discarded, stopped or ended before its first press records nothing", arguments: [0, 1, 2])
    func beforeTheFirstPress(way: Int) throws {
        var engine = SessionEngine(configuration: configuration(.challenge, count: 2), startedAt: .zero, soundAudible: true)
        _ = engine.begin()
        switch way {
        case 0: _ = engine.discard(at: at(5), reason: "Discarded from the companion.")
        case 1: _ = engine.interrupt(at: at(5), reason: "The program stopped.")
        default: _ = engine.handle(.endRequested(at: at(5)))
        }
        let outcome = try #require(engine.outcome)
        #expect(outcome.status == (way == 0 ? .aborted : .interrupted))
        #expect(outcome.endedBeforeFirstPress)
        #expect(outcome.recordsNothing)
    }

    @Test("a Challenge whose first attempt was started is kept, though nothing was measured")
    func afterTheFirstPress() throws {
        var script = SessionScript()
        script.tap(1)
        var engine = SessionEngine(configuration: configuration(.challenge, count: 2), startedAt: .zero, soundAudible: true)
        _ = engine.begin()
        for event in script.events { _ = engine.handle(event) }
        _ = engine.discard(at: at(20), reason: "Discarded from the companion.")
        let outcome = try #require(engine.outcome)
        #expect(outcome.status == .aborted && outcome.attempts.isEmpty)
        #expect(!outcome.endedBeforeFirstPress)
        #expect(!outcome.recordsNothing)
    }

    @Test("a Passive session runs from its start: ended before its first boundary, it is kept as aborted")
    func passive() throws {
        var engine = SessionEngine(configuration: configuration(.passive, count: 3), startedAt: .zero, soundAudible: true)
        _ = engine.begin()
        _ = engine.discard(at: at(20), reason: "Discarded from the companion.")
        let outcome = try #require(engine.outcome)
        #expect(outcome.status == .aborted && outcome.boundaries.isEmpty)
        #expect(!outcome.recordsNothing)
    }

    @Test("the finished event says whether the session left a row")
    func event() {
        #expect(DeviceEvent.sessionFinished(sessionID: "S", status: .aborted, recorded: false).json.compactText
                == #"{"session_id":"S","status":"aborted","recorded":false}"#)
    }
}
