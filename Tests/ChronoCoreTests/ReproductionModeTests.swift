import Testing
@testable import ChronoCore

@Suite("Reproduction mode: the fourth SessionMode (issue 24's contract item 1)")
struct ReproductionModeTests {
    @Test("the raw value is reproduction, it parses in any case and it is made of attempts")
    func theCase() throws {
        #expect(SessionMode.reproduction.rawValue == "reproduction")
        #expect(try SessionMode(parsing: "Reproduction") == .reproduction)
        #expect(SessionMode.reproduction.usesAttempts)
        #expect(SessionMode.allCases == [.challenge, .fear, .passive, .reproduction])
        #expect(SessionMode.reproduction.title == "Reproduction")
    }

    @Test("an unknown mode's message lists all four modes")
    func unknownModeMessage() {
        #expect(throws: ConfigurationError.unknownMode("sprint")) { try SessionMode(parsing: "sprint") }
        #expect(ConfigurationError.unknownMode("sprint").description == "'sprint' is not a mode. Use challenge, fear, passive or reproduction.")
    }
}

@Suite("Reproduction engine: presentation at absolute deadlines, then two presses (SPEC §10)")
struct ReproductionEngineTests {
    let at = SessionScript.at

    func motorTimes(_ effects: [SessionEffect]) -> [String] {
        effects.compactMap { if case .motor(_, let label, let when) = $0 { return "\(label.text)@\(when.nanoseconds)" } else { return nil } }
    }

    @Test("one attempt: marks at 2 s and 2 s + T, the reproduction's presses are the marks, the presented onsets are kept")
    func oneAttempt() throws {
        var script = SessionScript()
        script.tap(12.8, hold: 0.15)   // start the reproduction 0.8 s after the end mark (at 12 s)
        script.tap(23.3, hold: 0.12)   // end it: 10.5 s reproduced for 10 s
        var engine = SessionEngine(configuration: configuration(.reproduction, seconds: 10), startedAt: .zero, soundAudible: true)
        let effects = drive(&engine, script.events)
        let outcome = try #require(engine.outcome)
        #expect(outcome.status == .completed)
        let attempt = try #require(outcome.attempts.first)
        #expect(attempt.startMark == at(12.8))
        #expect(attempt.tapMark == at(23.3))
        #expect(attempt.presentedStart == at(2))
        #expect(attempt.presentedEnd == at(12))
        #expect(attempt.presentedDuration == .seconds(10))
        #expect(attempt.elapsed == .milliseconds(10_500))
        #expect(attempt.ratio == 1.05)
        #expect(attempt.signedError == .milliseconds(500))
        #expect(attempt.percentError == 0.05)
        #expect(attempt.zone == .yellow)
        #expect(outcome.endedAt == at(23.3))
        #expect(outcome.recordStart == .zero)
        #expect(motorTimes(effects) == ["ready@0", "presented-start@2000000000", "presented-end@12000000000",
                                        "start@12950000000", "feedback-yellow-late@23420000000", "session-done@24460000000"])
        #expect(HapticCue.presentationMark.pattern.description == "M")
        #expect(HapticCue.presentationMark.pattern.duration == .milliseconds(100))
    }

    @Test("presses before the end mark are ignored and counted; the next attempt's presentation follows the feedback by itself")
    func twoAttemptsWithPressesDuringPresentation() throws {
        var script = SessionScript()
        script.tap(5)                   // during attempt 1's presentation (2 s to 12 s)
        script.tap(11.9, hold: 0.3)     // pressed before the end mark, released after: still ignored
        script.tap(13)                  // reproduction 1 starts
        script.tap(22)                  // and ends (9 s): feedback until 23.6, presentation 2 at 25.6 to 35.6
        script.tap(30)                  // during presentation 2
        script.tap(36)                  // reproduction 2 starts
        script.tap(47)                  // and ends (11 s)
        var engine = SessionEngine(configuration: configuration(.reproduction, seconds: 10, count: 2, autoStart: true),
                                   startedAt: .zero, soundAudible: true)
        let effects = drive(&engine, script.events)
        let outcome = try #require(engine.outcome)
        #expect(outcome.status == .completed)
        #expect(outcome.attempts.map(\.startMark) == [at(13), at(36)])
        #expect(outcome.attempts.map(\.tapMark) == [at(22), at(47)])
        #expect(outcome.attempts.map(\.presentedStart) == [at(2), at(25.6)])
        #expect(outcome.attempts.map(\.presentedEnd) == [at(12), at(35.6)])
        #expect(outcome.attempts.map(\.ratio) == [0.9, 1.1])
        #expect(outcome.pressesIgnoredDuringPresentation == 3)
        #expect(effects.ignoredPresses == [at(5), at(11.9), at(30)])
        #expect(outcome.metrics.meanRatio == 1.0)
        #expect(outcome.metrics.meanAbsErrorSeconds == 1.0)
        #expect(outcome.metrics.meanSignedErrorSeconds == 0.0)
        #expect(outcome.metrics.timeAcuityScore == 80)
    }

    @Test("the phases: Presenting, WaitingForStart, AttemptRunning, then the summary")
    func phases() throws {
        var script = SessionScript()
        script.tap(13)
        script.tap(22)
        var engine = SessionEngine(configuration: configuration(.reproduction, seconds: 10), startedAt: .zero, soundAudible: true)
        let names = drive(&engine, script.events).compactMap { if case .phaseChanged(let phase, _) = $0 { return phase.name } else { return nil } }
        #expect(names == ["Presenting", "WaitingForStart", "AttemptRunning", "SessionSummary", "Completed"])
        #expect(DeviceState.Name(.presenting(attempt: 1, endDue: .zero)) == .presenting)
    }

    @Test("the loop's reported onsets are what the attempt keeps; a mark 80 ms late flags the session")
    func reportedOnsets() throws {
        var engine = SessionEngine(configuration: configuration(.reproduction, seconds: 10), startedAt: .zero, soundAudible: true)
        _ = engine.begin()
        _ = engine.handle(.deadline(now: at(2)))
        engine.cueBegan(.presentedStart, due: at(2), at: at(2.001))
        _ = engine.handle(.deadline(now: at(12)))
        engine.cueBegan(.presentedEnd, due: at(12), at: at(12.08))
        var script = SessionScript()
        script.tap(13)
        script.tap(23)
        let _ = drive(&engine, script.events)
        let attempt = try #require(engine.outcome?.attempts.first)
        #expect(attempt.presentedStart == at(2.001))
        #expect(attempt.presentedEnd == at(12.08))
        #expect(engine.outcome?.timingLateness == .milliseconds(80))
    }

    @Test("a long press during the presentation asks to discard; a second discards, nothing is logged")
    func discardDuringPresentation() throws {
        var script = SessionScript()
        script.longPress(4, hold: 2)       // recognised at 5.5
        script.longPress(8, hold: 2)       // recognised at 9.5: discarded
        var engine = SessionEngine(configuration: configuration(.reproduction, seconds: 10), startedAt: .zero, soundAudible: true)
        let effects = drive(&engine, script.events)
        let outcome = try #require(engine.outcome)
        #expect(outcome.status == .aborted)
        #expect(outcome.attempts.isEmpty)
        #expect(effects.motorLabels == ["ready", "presented-start", "abort-confirm", "discarded"])
        let anchor = WallClockAnchor(unixNanoseconds: 1_795_000_000_000_000_000, monotonic: .zero, utcOffsetSeconds: 0)
        #expect(HealthRecordBuilder.decide(for: outcome, sessionID: "X", device: "d", anchor: anchor).record == nil)
    }

    @Test("feedback withheld: the reproduction's two presses get the recorded cue and no feedback")
    func withheld() throws {
        var script = SessionScript()
        script.tap(13)
        script.tap(22)
        var configuration = configuration(.reproduction, seconds: 10)
        configuration.feedback = .withheld
        var engine = SessionEngine(configuration: configuration, startedAt: .zero, soundAudible: true)
        let effects = drive(&engine, script.events)
        #expect(effects.motorLabels == ["ready", "presented-start", "presented-end", "recorded", "recorded", "session-done"])
        #expect(engine.outcome?.attempts.first?.ratio == 0.9)
    }
}
