import ChronoTesting
import ChronoCore
import ChronoHardware
import Testing
@testable import ChronoRuntime

/// Real Challenge and Fear sessions through the loop on virtual time, with mock drivers and test-only
/// intervals: taps at exact instants, marks and cues asserted exactly.
@Suite("Challenge and Fear through the loop on virtual time")
struct ChallengeLoopTests {
    static func ms(_ value: Int64) -> MonotonicInstant { VirtualHarness.ms(value) }

    @Test("Two attempts: feedback lines in order, the records, every cue played, motor off at the end")
    func twoAttempts() throws {
        let controller = SingleSessionController(configuration: try QuickSession.configuration(.challenge, count: 2),
                                                 context: QuickSession.context(), sessionID: "S1")
        let harness = try VirtualHarness(controller: controller)
        // Each attempt: the start press, then the tap 400 ms later (300 ms asked for: late).
        for start: Int64 in [1_000, 2_500] {
            harness.tap(at: Self.ms(start))
            harness.tap(at: Self.ms(start + 400))
        }
        let report = try harness.run()
        #expect(report.ending == .finished)

        #expect(harness.lines.all == [
            "Challenge: 2 attempts of 300ms. Hold to discard.",
            "Attempt 1 of 2: press space to start.",
            "Attempt 1 of 2: started. Press space when 300ms have passed.",
            "Attempt 1 of 2: Late by 0s · red",
            "Attempt 2 of 2: press space to start.",
            "Attempt 2 of 2: started. Press space when 300ms have passed.",
            "Attempt 2 of 2: Late by 0s · red",
            "Session complete: 2 attempts of 300ms · typical error 0s · no bias · Time Acuity 33",
        ])
        #expect(harness.recorder.started.map(\.sessionID) == ["S1"])
        let finish = try #require(harness.recorder.finished.first)
        #expect(finish.outcome.status == .completed)
        // The marks are the edges' own instants, not when the loop read them.
        #expect(finish.outcome.attempts.map(\.startMark) == [Self.ms(1_000), Self.ms(2_500)])
        #expect(finish.outcome.attempts.map(\.tapMark) == [Self.ms(1_400), Self.ms(2_900)])
        #expect(finish.outcome.endedAt == Self.ms(2_900))

        // Cues: ready (3 ticks, 100 ms apart from the start), start (2, from the start press's release
        // at 1060 ms), feedback (4: late buzz + ticks), ×2 attempts minus one ready per later attempt,
        // and the session-done cue — every on-edge the engine asked for was played, and each was
        // switched off.
        #expect(Array(harness.onInstants.prefix(5)) == [Self.ms(0), Self.ms(100), Self.ms(200), Self.ms(1_060), Self.ms(1_160)])
        let expectedPulses = try expectedOnEdges(for: finish.outcome)
        #expect(harness.onInstants.count == expectedPulses)
        #expect(harness.motor.endedOff)
    }

    @Test("Fear: a large error plays the sound with the late buzz, on the sound worker; a lost sound is recorded as not effective")
    func fearSound() throws {
        let driver = VirtualLoopDriver()
        let sound = VirtualHarness.sound(on: driver)
        sound.loseSound(afterPlays: 1, reason: "speaker unplugged")
        let configuration = try QuickSession.configuration(.fear, count: 3)
        let controller = SingleSessionController(configuration: configuration,
                                                 context: QuickSession.context(sound: .audible), sessionID: "F1")
        let harness = try VirtualHarness(controller: controller, driver: driver, sound: sound)
        // Each attempt's tap 600 ms after its start: 100 % late, far above the 10 % threshold.
        for start: Int64 in [1_000, 3_000, 5_000] {
            harness.tap(at: Self.ms(start))
            harness.tap(at: Self.ms(start + 600))
        }
        _ = try harness.run()
        // The first play works, at the instant its late buzz starts; the second fails, which the engine
        // hears about before attempt 3.
        #expect(sound.playInstants == [1_660_000_000])
        #expect(harness.onInstants.contains(Self.ms(1_660)))
        #expect(sound.events.last == .playFailed(reason: "speaker unplugged", atMonotonicNanoseconds: 3_660_000_000))
        let lines = harness.lines.all
        let lost = try #require(lines.firstIndex(of: "Sound failed: speaker unplugged"))
        #expect(lines.firstIndex(of: "Attempt 3 of 3: press space to start.").map { $0 > lost } == true)
        #expect(lines.filter { $0 == "Aversive sound." }.count == 2)
        let finish = try #require(harness.recorder.finished.first)
        #expect(finish.outcome.fearSoundEffective == false)
        #expect(lines.contains { $0.contains("Fear sound: not effective") })
        #expect(harness.motor.endedOff)
    }

    @Test("A press during a pattern is measured at its own instant and the cues queue behind each other")
    func pressDuringPattern() throws {
        let controller = SingleSessionController(configuration: try QuickSession.configuration(.challenge, count: 1),
                                                 context: QuickSession.context(), sessionID: "P1")
        let harness = try VirtualHarness(controller: controller)
        // Press while the ready cue (three ticks, 0 to 240 ms) is still playing.
        harness.tap(at: Self.ms(100), holdMilliseconds: 40)
        harness.tap(at: Self.ms(500))
        #expect(try harness.run().ending == .finished)
        let finish = try #require(harness.recorder.finished.first)
        #expect(finish.outcome.attempts.first?.startMark == Self.ms(100))
        #expect(finish.outcome.attempts.first?.tapMark == Self.ms(500))
        // The start cue, asked for at the press's release (140 ms), waits for the ready cue to end
        // (240 ms) and the pause between patterns (150 ms): it begins at 390 ms, not on top of it.
        #expect(Array(harness.onInstants.prefix(5)) == [Self.ms(0), Self.ms(100), Self.ms(200), Self.ms(390), Self.ms(490)])
        // No two vibrations overlapped: every span ended before the next began.
        let spans = harness.motor.onSpans
        for (earlier, later) in zip(spans, spans.dropFirst()) {
            #expect(try #require(earlier.end) <= later.start)
        }
        #expect(harness.motor.endedOff)
    }

    @Test("Two long presses discard the session: the discard cue plays, nothing is completed")
    func discard() throws {
        let controller = SingleSessionController(configuration: try QuickSession.configuration(.challenge, count: 1),
                                                 context: QuickSession.context(), sessionID: "D1")
        let harness = try VirtualHarness(controller: controller)
        harness.tap(at: Self.ms(1_000), holdMilliseconds: 600)
        harness.at(Self.ms(1_500)) {
            #expect(harness.lines.all.last == "Discard this session? Hold again within 2s to discard; tap to go on.")
        }
        harness.tap(at: Self.ms(2_000), holdMilliseconds: 600)  // after the first press was let go
        let report = try harness.run()
        #expect(report.ending == .finished)
        let finish = try #require(harness.recorder.finished.first)
        #expect(finish.outcome.status == .aborted)
        // The second long press is recognised 400 ms after it began.
        #expect(finish.outcome.endedAt == Self.ms(2_400))
        #expect(harness.lines.all.last == "Session discarded. Nothing is logged.")
        #expect(harness.motor.endedOff)
    }
}

/// How many motor switch-ons a finished outcome's session asked for, from the engine on a virtual clock
/// fed the same marks.
func expectedOnEdges(for outcome: SessionOutcome) throws -> Int {
    var engine = SessionEngine(configuration: outcome.configuration, startedAt: outcome.startedAt, soundAudible: false)
    var effects = engine.begin()
    for attempt in outcome.attempts {
        for mark in [attempt.startMark, attempt.tapMark] {
            effects += engine.handle(.button(RawButtonEdge(pressed: true, at: mark)))
            effects += engine.handle(.button(RawButtonEdge(pressed: false, at: mark + .milliseconds(60))))
        }
    }
    while let deadline = engine.nextDeadline { effects += engine.handle(.deadline(now: deadline)) }
    return effects.reduce(0) { total, effect in
        if case .motor(let pattern, _, _) = effect { return total + pattern.elements.count }
        return total
    }
}
