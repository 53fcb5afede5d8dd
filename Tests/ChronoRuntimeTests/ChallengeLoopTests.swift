import ChronoTesting
import ChronoCore
import ChronoHardware
import Testing
@testable import ChronoRuntime

/// Real Challenge and Fear sessions through the real loop, with mock drivers and test-only intervals.
@Suite("Challenge and Fear through the real loop")
struct ChallengeLoopTests {
    @Test("Two attempts: feedback lines in order, the records, every cue played, motor off at the end")
    func twoAttempts() throws {
        let controller = SingleSessionController(configuration: try QuickSession.configuration(.challenge, count: 2),
                                                 context: QuickSession.context(), sessionID: "S1")
        let harness = try LoopHarness(controller: controller)
        harness.start()
        for attempt in 1...2 {
            try harness.waitForLine("Attempt \(attempt) of 2: press space to start.")
            harness.tap()
            try harness.waitForLine("Attempt \(attempt) of 2: started.")
            harness.tap(afterMilliseconds: 300)
            try harness.waitForLine(attempt == 1 ? "Attempt 1 of 2: Late" : "Attempt 2 of 2: Late")
        }
        let report = try harness.finish()
        #expect(report.ending == .finished)

        let lines = harness.lines.all
        let order = ["Challenge: 2 attempts", "Attempt 1 of 2: press space to start.", "Attempt 1 of 2: started.",
                     "Attempt 1 of 2: Late", "Attempt 2 of 2: press space to start.", "Attempt 2 of 2: started.",
                     "Attempt 2 of 2: Late", "Session complete: 2 attempts"]
        var cursor = 0
        for line in lines where cursor < order.count && line.contains(order[cursor]) { cursor += 1 }
        #expect(cursor == order.count, "lines out of order: \(lines)")

        #expect(harness.recorder.started.map(\.sessionID) == ["S1"])
        let finish = try #require(harness.recorder.finished.first)
        #expect(finish.outcome.status == .completed)
        #expect(finish.outcome.attempts.count == 2)
        // The marks are the scripted edges' own timestamps, not the time the loop read them.
        let pressInstants = harness.button.injectedEdges.filter { $0.direction == .pressed }.map(\.monotonicNanoseconds)
        #expect(finish.outcome.attempts.flatMap { [$0.startMark.nanoseconds, $0.tapMark.nanoseconds] } == pressInstants)

        // Cues: ready (3 ticks), start (2), feedback (4: late buzz + ticks), ×2 attempts minus one ready
        // per later attempt — every on-edge the engine asked for was played, and each was switched off.
        let expectedPulses = try expectedOnEdges(for: finish.outcome)
        #expect(harness.motor.commands.filter(\.on).count == expectedPulses)
        #expect(harness.motor.endedOff)
    }

    @Test("Fear: a large error plays the sound on the sound thread; a lost sound is recorded as not effective")
    func fearSound() throws {
        let sound = RecordingSound()
        sound.loseSound(afterPlays: 1, reason: "speaker unplugged")
        let configuration = try QuickSession.configuration(.fear, count: 3)
        let controller = SingleSessionController(configuration: configuration,
                                                 context: QuickSession.context(sound: .audible), sessionID: "F1")
        let harness = try LoopHarness(controller: controller, sound: sound)
        harness.start()
        // The first play works; the second fails, which the engine hears about before attempt 3.
        for attempt in 1...3 {
            try harness.waitForLine("Attempt \(attempt) of 3: press space to start.")
            harness.tap()
            try harness.waitForLine("Attempt \(attempt) of 3: started.")
            harness.tap(afterMilliseconds: 600)  // 100 % late: far above the 10 % threshold
            try harness.waitForLine("Attempt \(attempt) of 3: Late")
            if attempt == 2 { try harness.waitForLine("Sound was lost") }
        }
        _ = try harness.finish()
        #expect(sound.playInstants.count == 1)
        let finish = try #require(harness.recorder.finished.first)
        #expect(finish.outcome.fearSoundEffective == false)
        #expect(harness.lines.all.contains { $0.contains("Fear sound: not effective") })
        #expect(harness.motor.endedOff)
    }

    @Test("A press during a pattern is measured at its own instant and the cues queue behind each other")
    func pressDuringPattern() throws {
        let controller = SingleSessionController(configuration: try QuickSession.configuration(.challenge, count: 1),
                                                 context: QuickSession.context(), sessionID: "P1")
        let harness = try LoopHarness(controller: controller)
        harness.start()
        // Press while the ready cue (three ticks, 260 ms) is still playing.
        try harness.waitForLine("Attempt 1 of 1: press space to start.")
        harness.tap(holdMilliseconds: 40)
        try harness.waitForLine("Attempt 1 of 1: started.")
        harness.tap(afterMilliseconds: 300)
        let report = try harness.finish()
        #expect(report.ending == .finished)
        let finish = try #require(harness.recorder.finished.first)
        let press = try #require(harness.button.injectedEdges.first { $0.direction == .pressed })
        #expect(finish.outcome.attempts.first?.startMark.nanoseconds == press.monotonicNanoseconds)
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
        let harness = try LoopHarness(controller: controller)
        harness.start()
        try harness.waitForLine("press space to start.")
        harness.tap(holdMilliseconds: 600)
        try harness.waitForLine("Discard this session?")
        harness.tap(holdMilliseconds: 600, afterMilliseconds: 400)  // after the first press was let go
        let report = try harness.finish()
        #expect(report.ending == .finished)
        #expect(harness.recorder.finished.first?.outcome.status == .aborted)
        #expect(harness.lines.all.contains("Session discarded. Nothing is logged."))
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
