import Testing
@testable import ChronoCore

@Suite("Passive engine: absolute boundaries and early ends")
struct PassiveEngineTests {
    let at = SessionScript.at

    @Test("boundary k fires at start + k × interval with H(I); no drift over many repetitions")
    func absoluteBoundaries() throws {
        let start = MonotonicInstant(nanoseconds: 123_456_789)
        var engine = SessionEngine(configuration: configuration(.passive, seconds: 10, count: 99).withSeconds(7), startedAt: start, soundAudible: true)
        let effects = drive(&engine, [])
        let outcome = try #require(engine.outcome)
        #expect(outcome.status == .completed)
        #expect(outcome.boundaries.count == 99)
        for boundary in outcome.boundaries {
            #expect(boundary.due == start + TimeSpan.seconds(7) * Int64(boundary.index))
        }
        #expect(effects.motorLabels.filter { $0 == "interval" }.count == 99)
        #expect(outcome.endedAt == start + TimeSpan.seconds(693))
    }

    @Test("taps do nothing; a long press ends the session with the repetitions done so far")
    func endedEarly() throws {
        var script = SessionScript()
        script.tap(30)
        script.longPress(150, hold: 2)   // recognised at 151.5: two boundaries of 60 s done
        var engine = SessionEngine(configuration: configuration(.passive, seconds: 60, count: 6), startedAt: .zero, soundAudible: true)
        let effects = drive(&engine, script.events)
        let outcome = try #require(engine.outcome)
        #expect(outcome.status == .completed)
        #expect(outcome.repetitionsDone == 2)
        #expect(outcome.endedAt == at(151.5))
        #expect(outcome.totalDurationSeconds == 152)
        #expect(effects.ignoredPresses == [at(30)])
        // 151.5 s ≥ min(2 × 60 s, 5 min): logged.
        let anchor = WallClockAnchor(unixNanoseconds: 0, monotonic: .zero, utcOffsetSeconds: 0)
        let record = try #require(HealthRecordBuilder.decide(for: outcome, sessionID: "ID", device: "d", anchor: anchor).record)
        #expect(record.metadataValue("repetition_count") == .int(2))
        #expect(record.metadataValue("total_duration_seconds") == .int(152))
    }

    @Test("ended before the first boundary: aborted")
    func endedBeforeFirstBoundary() {
        var script = SessionScript()
        script.longPress(20, hold: 2)
        var engine = SessionEngine(configuration: configuration(.passive, seconds: 60, count: 6), startedAt: .zero, soundAudible: true)
        _ = drive(&engine, script.events)
        #expect(engine.outcome?.status == .aborted)
    }

    @Test("ended early but too short to log: completed, no record")
    func tooShortToLog() throws {
        var script = SessionScript()
        script.append(.endRequested(at: at(700)))
        // Interval 600 s: one boundary at 600 s; 700 s < min(1200 s, 300 s)? No: 700 ≥ 300, logged.
        var logged = SessionEngine(configuration: configuration(.passive, seconds: 600, count: 3), startedAt: .zero, soundAudible: true)
        _ = drive(&logged, script.events)
        let anchor = WallClockAnchor(unixNanoseconds: 0, monotonic: .zero, utcOffsetSeconds: 0)
        let loggedOutcome = try #require(logged.outcome)
        #expect(HealthRecordBuilder.decide(for: loggedOutcome, sessionID: "ID", device: "d", anchor: anchor).record != nil)
        // Interval 100 s, ended at 150 s: one boundary, 150 s < min(200 s, 300 s): not logged.
        var short = SessionEngine(configuration: configuration(.passive, seconds: 100, count: 6), startedAt: .zero, soundAudible: true)
        _ = drive(&short, [.endRequested(at: at(150))])
        let outcome = try #require(short.outcome)
        #expect(outcome.status == .completed)
        guard case .none(let reason) = HealthRecordBuilder.decide(for: outcome, sessionID: "ID", device: "d", anchor: anchor) else {
            Issue.record("a too-short Passive session was logged")
            return
        }
        #expect(reason.contains("too short"))
    }

    @Test("a boundary due exactly when the long press is recognised still counts")
    func simultaneous() throws {
        var script = SessionScript()
        script.longPress(58.5, hold: 2)   // recognised at exactly 60 s
        var engine = SessionEngine(configuration: configuration(.passive, seconds: 60, count: 6), startedAt: .zero, soundAudible: true)
        _ = drive(&engine, script.events)
        #expect(engine.outcome?.repetitionsDone == 1)
        #expect(engine.outcome?.status == .completed)
    }
}

extension SessionConfiguration {
    /// Passive at a whole number of seconds below the product minimum is not allowed; tests that need
    /// many quick boundaries use a test interval of the same length.
    func withSeconds(_ seconds: Int64) -> SessionConfiguration {
        var copy = self
        copy.interval = TrainingInterval.testOnly(milliseconds: seconds * 1000)
        return copy
    }
}
