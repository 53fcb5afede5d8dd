import Testing
@testable import ChronoCore

@Suite("Challenge engine: SPEC §2 rules on a virtual clock")
struct ChallengeEngineTests {
    let at = SessionScript.at

    @Test("start and tap marks are the press edges; feedback, summary and completion follow")
    func oneAttempt() throws {
        var script = SessionScript()
        script.tap(1.0, hold: 0.15)
        script.tap(64.0, hold: 0.12)
        var engine = SessionEngine(configuration: configuration(.challenge), startedAt: .zero, soundAudible: true)
        let effects = drive(&engine, script.events)
        let outcome = try #require(engine.outcome)
        #expect(outcome.status == .completed)
        #expect(outcome.attempts.count == 1)
        #expect(outcome.attempts[0].startMark == at(1.0))
        #expect(outcome.attempts[0].tapMark == at(64.0))
        #expect(outcome.attempts[0].feedbackText == "Late by 3s · yellow")
        #expect(outcome.endedAt == at(64.0))
        #expect(effects.motorLabels == ["ready", "start", "feedback-yellow-late", "session-done"])
        #expect(engine.phase == .completed)
    }

    @Test("only the first tap counts; presses during feedback are ignored, even if released after it")
    func extraTaps() throws {
        var script = SessionScript()
        script.tap(1)
        script.tap(61)        // attempt 1 tap; feedback until 62.6
        script.tap(61.5)      // ignored: feedback showing
        script.tap(62.3, hold: 0.5)  // pressed during feedback, released after: still ignored
        script.tap(65)        // attempt 2 start
        script.tap(120)       // attempt 2 tap
        var engine = SessionEngine(configuration: configuration(.challenge, count: 2), startedAt: .zero, soundAudible: true)
        let effects = drive(&engine, script.events)
        let outcome = try #require(engine.outcome)
        #expect(outcome.status == .completed)
        #expect(outcome.attempts.map(\.startMark) == [at(1), at(65)])
        #expect(outcome.attempts.map(\.tapMark) == [at(61), at(120)])
        #expect(effects.ignoredPresses == [at(61.5), at(62.3)])
    }

    @Test("any tap is accepted, however early or late")
    func anyTap() throws {
        var script = SessionScript()
        script.tap(1)
        script.tap(1.3)
        var engine = SessionEngine(configuration: configuration(.challenge), startedAt: .zero, soundAudible: true)
        _ = drive(&engine, script.events)
        let attempt = try #require(engine.outcome?.attempts.first)
        #expect(attempt.elapsed == .milliseconds(300))
        #expect(attempt.zone == .red)
        #expect(attempt.direction == .early)
    }

    @Test("auto-start: the next attempt's start mark is the end of feedback")
    func autoStart() throws {
        var script = SessionScript()
        script.tap(1)
        script.tap(61, hold: 0.2)   // recognised at 61.2; feedback (1.5 s) until 62.7
        script.tap(125)
        var engine = SessionEngine(configuration: configuration(.challenge, count: 2, autoStart: true), startedAt: .zero, soundAudible: true)
        _ = drive(&engine, script.events)
        let outcome = try #require(engine.outcome)
        #expect(outcome.attempts.map(\.startMark) == [at(1), at(62.7)])
        #expect(outcome.attempts[1].tapMark == at(125))
    }

    @Test("a long press asks to discard; a second within the window discards; nothing is logged")
    func abortConfirmed() throws {
        var script = SessionScript()
        script.tap(1)
        script.longPress(10, hold: 2)     // recognised at 11.5
        script.longPress(13, hold: 2)     // recognised at 14.5 < 16.5
        var engine = SessionEngine(configuration: configuration(.challenge, count: 3), startedAt: .zero, soundAudible: true)
        let effects = drive(&engine, script.events)
        let outcome = try #require(engine.outcome)
        #expect(outcome.status == .aborted)
        #expect(outcome.endedAt == at(14.5))
        #expect(effects.motorLabels == ["ready", "start", "abort-confirm", "discarded"])
        let anchor = WallClockAnchor(unixNanoseconds: 0, monotonic: .zero, utcOffsetSeconds: 0)
        #expect(HealthRecordBuilder.decide(for: outcome, sessionID: "X", device: "d", anchor: anchor).record == nil)
    }

    @Test("a tap answers the discard request and is consumed; timing of the attempt goes on")
    func abortWithdrawnByTap() throws {
        var script = SessionScript()
        script.tap(1)
        script.longPress(10, hold: 2)     // request at 11.5
        script.tap(13)                    // withdraws, consumed
        script.tap(61)                    // the tap mark
        var engine = SessionEngine(configuration: configuration(.challenge), startedAt: .zero, soundAudible: true)
        _ = drive(&engine, script.events)
        let outcome = try #require(engine.outcome)
        #expect(outcome.status == .completed)
        #expect(outcome.attempts[0].startMark == at(1))
        #expect(outcome.attempts[0].tapMark == at(61))
    }

    @Test("a discard request lapses after the window; a later long press asks again")
    func abortLapses() throws {
        var script = SessionScript()
        script.tap(1)
        script.longPress(10, hold: 2)     // request at 11.5, lapses at 16.5
        script.longPress(17, hold: 2)     // a new request at 18.5, not a confirmation
        script.tap(20)                    // withdraws the second request
        script.tap(62)                    // tap mark
        var engine = SessionEngine(configuration: configuration(.challenge), startedAt: .zero, soundAudible: true)
        let effects = drive(&engine, script.events)
        let outcome = try #require(engine.outcome)
        #expect(outcome.status == .completed)
        #expect(outcome.attempts[0].tapMark == at(62))
        #expect(effects.motorLabels.filter { $0 == "abort-confirm" }.count == 2)
    }

    @Test("a long press never counts as a tap mark")
    func longPressIsNotATap() {
        var script = SessionScript()
        script.tap(1)
        script.longPress(61, hold: 1.6)
        var engine = SessionEngine(configuration: configuration(.challenge), startedAt: .zero, soundAudible: true)
        _ = drive(&engine, script.events)
        #expect(engine.outcome == nil)
        #expect(engine.phase == .attemptRunning(attempt: 1, startMark: at(1)))
    }

    @Test("stopping mid-session interrupts it, and interrupted sessions are never logged")
    func interrupted() throws {
        var script = SessionScript()
        script.tap(1)
        script.append(.endRequested(at: at(30)))
        var engine = SessionEngine(configuration: configuration(.challenge), startedAt: .zero, soundAudible: true)
        _ = drive(&engine, script.events)
        let outcome = try #require(engine.outcome)
        #expect(outcome.status == .interrupted)
        let anchor = WallClockAnchor(unixNanoseconds: 0, monotonic: .zero, utcOffsetSeconds: 0)
        #expect(HealthRecordBuilder.decide(for: outcome, sessionID: "X", device: "d", anchor: anchor).record == nil)
    }

    @Test("deadlines are never in the past and vibrations never overlap")
    func deadlinesAndVibrations() {
        var script = SessionScript()
        script.tap(1)
        script.tap(61)
        script.tap(61.3)
        var engine = SessionEngine(configuration: configuration(.challenge, count: 1), startedAt: .zero, soundAudible: true)
        var effects = engine.begin()
        for event in script.events {
            effects += engine.handle(event)
            if let deadline = engine.nextDeadline { #expect(deadline >= event.instant) }
        }
        var busyUntil = MonotonicInstant(nanoseconds: Int64.min)
        for case .motor(let pattern, _, let start) in effects {
            #expect(start >= busyUntil)
            busyUntil = start + pattern.duration
        }
    }
}
