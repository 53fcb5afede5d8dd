import Testing
@testable import ChronoCore

@Suite("Fear engine: threshold and sound")
struct FearEngineTests {
    let at = SessionScript.at

    /// Three attempts on 100 s: errors 9 s (9 %), 10 s (exactly 10 %: sound), 20 s (sound).
    func script(lostAt: Double? = nil) -> SessionScript {
        var script = SessionScript()
        script.tap(1); script.tap(110)
        script.tap(120); script.tap(230)
        script.tap(240); script.tap(360)
        if let lostAt { script.append(.soundLost(at: at(lostAt))) }
        script.events.sort { $0.instant < $1.instant }
        return script
    }

    @Test("sound plays from the threshold up, silence below")
    func threshold() throws {
        var engine = SessionEngine(configuration: configuration(.fear, seconds: 100, count: 3), startedAt: .zero, soundAudible: true)
        let effects = drive(&engine, script().events)
        #expect(effects.soundAttempts == [2, 3])
        let outcome = try #require(engine.outcome)
        #expect(outcome.fearSoundEffective)
        let metadata = HealthRecordBuilder.metadata(for: outcome, sessionID: "ID")
        #expect(metadata.first { $0.key == "fear_threshold_percent" }?.value == .double(0.10))
        #expect(metadata.first { $0.key == "fear_sound_effective" }?.value == .bool(true))
    }

    @Test("no sound at the start: a clear warning, no sound, fear_sound_effective false")
    func soundDisabled() throws {
        var engine = SessionEngine(configuration: configuration(.fear, seconds: 100, count: 3), startedAt: .zero, soundAudible: false)
        let effects = drive(&engine, script().events)
        #expect(effects.notices == ["Sound is disabled. Fear Mode will behave like Challenge Mode."])
        #expect(effects.soundAttempts.isEmpty)
        #expect(engine.outcome?.fearSoundEffective == false)
    }

    @Test("sound lost mid-session: no more sound and the flag is false")
    func soundLost() throws {
        var engine = SessionEngine(configuration: configuration(.fear, seconds: 100, count: 3), startedAt: .zero, soundAudible: true)
        let effects = drive(&engine, script(lostAt: 235).events)
        #expect(effects.soundAttempts == [2])
        #expect(engine.outcome?.fearSoundEffective == false)
        #expect(effects.notices.count == 1)
    }

    @Test("the threshold is configurable")
    func configurableThreshold() {
        var engine = SessionEngine(configuration: configuration(.fear, seconds: 100, count: 3, threshold: 0.05), startedAt: .zero, soundAudible: true)
        let effects = drive(&engine, script().events)
        #expect(effects.soundAttempts == [1, 2, 3])
    }

    @Test("Challenge never plays the sound")
    func challengeSilent() {
        var engine = SessionEngine(configuration: configuration(.challenge, seconds: 100, count: 3), startedAt: .zero, soundAudible: true)
        #expect(drive(&engine, script().events).soundAttempts.isEmpty)
        #expect(engine.outcome?.fearSoundEffective == false)
    }
}
