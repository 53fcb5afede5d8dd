import Testing
@testable import ChronoCore

@Suite("Feedback withheld: a neutral cue per press, no zone, error, score or Fear sound (contract item 2)")
struct FeedbackPolicyTests {
    let at = SessionScript.at

    func withheld(_ mode: SessionMode, count: Int = 2, threshold: Double = 0.10, autoStart: Bool = false) throws -> SessionConfiguration {
        var configuration = configuration(mode, count: count, threshold: threshold, autoStart: autoStart)
        configuration.feedback = .withheld
        return configuration
    }

    @Test("a configuration shows feedback unless told otherwise; the policy parses shown and withheld")
    func defaults() throws {
        #expect(configuration(.challenge).feedback == .shown)
        #expect(try FeedbackPolicy(parsing: "Withheld") == .withheld)
        #expect(throws: ConfigurationError.unknownFeedbackPolicy("off")) { try FeedbackPolicy(parsing: "off") }
        #expect(ConfigurationError.unknownFeedbackPolicy("off").description == "'off' is not a feedback policy. Use shown or withheld.")
    }

    @Test("the recorded cue is four ticks (340 ms), unlike every other cue and every interval pattern")
    func recordedCue() {
        #expect(HapticCue.recorded.pattern.description == "t t t t")
        #expect(HapticCue.recorded.pattern.duration == .milliseconds(340))
        #expect(HapticCue.recorded.name == "recorded")
        let others = HapticCue.all.filter { $0 != .recorded }.map(\.pattern)
        #expect(!others.contains(HapticCue.recorded.pattern))
        #expect(!IntervalPatternBook.candidates.contains(HapticCue.recorded.pattern))
    }

    @Test("Challenge withheld: every marking press gets the recorded cue, no feedback effect, every mark kept")
    func challengeWithheld() throws {
        var script = SessionScript()
        script.tap(1)
        script.tap(64)         // 3 s late: yellow, if it were shown
        script.tap(70)
        script.tap(100)        // 30 s early: red
        var engine = SessionEngine(configuration: try withheld(.challenge), startedAt: .zero, soundAudible: true)
        let effects = drive(&engine, script.events)
        let outcome = try #require(engine.outcome)
        #expect(outcome.status == .completed)
        #expect(outcome.attempts.map(\.startMark) == [at(1), at(70)])
        #expect(outcome.attempts.map(\.tapMark) == [at(64), at(100)])
        #expect(outcome.attempts.map(\.zone) == [.yellow, .red])
        #expect(effects.motorLabels == ["ready", "recorded", "recorded", "recorded", "recorded", "session-done"])
        #expect(!effects.contains { if case .attemptMeasured = $0 { return true } else { return false } })
        let recorded = effects.compactMap { effect -> [Int64]? in
            if case .attemptRecorded(let attempt, let tap, let when) = effect { return [Int64(attempt), tap.nanoseconds, when.nanoseconds] }
            return nil
        }
        #expect(recorded == [[1, 64_000_000_000, 64_100_000_000], [2, 100_000_000_000, 100_100_000_000]])
    }

    @Test("Fear withheld: no aversive sound after a large error, no sound warning, fear_sound_effective false")
    func fearWithheld() throws {
        var script = SessionScript()
        script.tap(1)
        script.tap(91)         // 50 % late
        var engine = SessionEngine(configuration: try withheld(.fear, count: 1), startedAt: .zero, soundAudible: false)
        let effects = drive(&engine, script.events)
        let outcome = try #require(engine.outcome)
        #expect(effects.soundAttempts == [])
        #expect(effects.notices == [])
        #expect(outcome.fearSoundEffective == false)
        #expect(outcome.attempts[0].absPercentError == 0.5)
        var audible = SessionEngine(configuration: try withheld(.fear, count: 1), startedAt: .zero, soundAudible: true)
        #expect(drive(&audible, script.events).soundAttempts == [])
        #expect(audible.outcome?.fearSoundEffective == false)
    }

    @Test("auto-start withheld: the attempt that starts by itself keeps its start cue (no press to confirm)")
    func autoStartWithheld() throws {
        var script = SessionScript()
        script.tap(1)
        script.tap(61, hold: 0.2)   // feedback (1.5 s) until 62.7, then attempt 2 starts by itself
        script.tap(125)
        var engine = SessionEngine(configuration: try withheld(.challenge, autoStart: true), startedAt: .zero, soundAudible: true)
        let effects = drive(&engine, script.events)
        #expect(effects.motorLabels == ["ready", "recorded", "recorded", "start", "recorded", "session-done"])
        #expect(engine.outcome?.attempts.map(\.startMark) == [at(1), at(62.7)])
    }
}
