import Testing
import ChronoCore
@testable import ChronoSimulation

@Suite("Reproduction in replay and simulate: the presented interval, the person's W and B")
struct ReproductionSimulationTests {
    let anchor = WallClockAnchor(unixNanoseconds: 1_795_417_200_000_000_000, monotonic: .zero, utcOffsetSeconds: 3600)

    @Test("1000 simulated Reproduction sessions keep every invariant, through every path")
    func thousandSessions() {
        var failures: [String] = []
        var statuses: [SessionStatus: Int] = [:]
        var ignored = 0
        SimulationRun(seed: 5, reproductionPerson: SimulatedParticipant(weberFraction: 0.12, meanRatio: 0.95)).run(sessions: 1000) { result in
            statuses[result.outcome.status, default: 0] += 1
            ignored += result.outcome.pressesIgnoredDuringPresentation
            #expect(result.scenario.configuration.mode == .reproduction)
            if !result.violations.isEmpty { failures.append(result.line) }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
        #expect(statuses[.completed, default: 0] > 850)
        #expect(statuses[.aborted, default: 0] > 20)
        #expect(statuses[.interrupted, default: 0] > 20)
        #expect(ignored > 300)
    }

    @Test("a person with W and B: B is the mean ratio (bias B − 1), one draw is B·T·(1 + W·g)")
    func person() {
        let person = SimulatedParticipant(weberFraction: 0.1, meanRatio: 1.05)
        #expect(person.meanRatio == 1.05)
        #expect(abs(person.bias - 0.05) < 1e-15)
        let interval = try! TrainingInterval(seconds: 20)
        var random = SplitMix64(seed: 11)
        var copy = random
        let g = copy.nextGaussian()
        let first = person.producedDuration(for: interval, using: &random)
        #expect(first == TimeSpan(nanoseconds: Int64((1.05 * 20e9 * (1 + 0.1 * g)).rounded())))
        // Over many draws: the mean ratio is B and the coefficient of variation is W.
        var ratios: [Double] = []
        for _ in 0..<20_000 { ratios.append(Double(person.producedDuration(for: interval, using: &random).nanoseconds) / 20e9) }
        let mean = ratios.reduce(0, +) / Double(ratios.count)
        let sd = (ratios.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(ratios.count - 1)).squareRoot()
        #expect(abs(mean - 1.05) < 0.003)
        #expect(abs(sd / mean - 0.1) < 0.003)
        #expect(SimulatedParticipant.presentationEnd(attemptStart: .zero, interval: interval) == MonotonicInstant(nanoseconds: 22_000_000_000))
    }

    @Test("the checker catches a miscounted press during a presentation")
    func checkerCatchesMiscount() throws {
        var random = SplitMix64(seed: 3)
        var scenario = SimulatedUser.reproductionScenario(person: SimulatedParticipant(weberFraction: 0.1, meanRatio: 1), using: &random)
        while scenario.expectedStatus != .completed {
            scenario = SimulatedUser.reproductionScenario(person: SimulatedParticipant(weberFraction: 0.1, meanRatio: 1), using: &random)
        }
        let transcript = VirtualClock.run(configuration: scenario.configuration, soundAudible: true, inputs: scenario.inputs)
        scenario.expectedPressesDuringPresentation += 1
        let outcome = try #require(transcript.outcome)
        let decision = HealthRecordBuilder.decide(for: outcome, sessionID: "ID", device: "d", anchor: anchor)
        let violations = InvariantChecker(anchor: anchor).violations(scenario: scenario, transcript: transcript, record: decision)
        #expect(violations.contains { $0.contains("presses ignored during presentations") })
    }

    @Test("replay: presented marks, ratio, the ignored count, the summary with mean_ratio, the record from the session start")
    func replayReport() throws {
        let text = """
        press 5000000000
        release 5100000000
        press 12800000000
        release 12950000000
        press 23300000000
        release 23420000000
        """
        let configuration = try SessionConfiguration(mode: .reproduction, interval: TrainingInterval(seconds: 10))
        let transcript = VirtualClock.run(configuration: configuration, soundAudible: true, inputs: try ReplayScript.parse(text).events)
        let report = ReplayReport.build(transcript: transcript, configuration: configuration, soundAudible: true,
                                        anchor: anchor, sessionID: "ID", device: "desktop")
        #expect(report["status"] == .string("completed"))
        #expect(report["presses_ignored_during_presentation"] == .int(1))
        guard case .array(let attempts) = report["attempts"] else { Issue.record("no attempts"); return }
        #expect(attempts[0]["presented_start_ns"] == .int(2_000_000_000))
        #expect(attempts[0]["presented_end_ns"] == .int(12_000_000_000))
        #expect(attempts[0]["ratio"] == .double(1.05))
        #expect(attempts[0]["elapsed_seconds"] == .double(10.5))
        #expect(report["summary"]?["chronoception_version"] == .int(2))
        #expect(report["summary"]?["chronoception_mode"] == .string("reproduction"))
        #expect(report["summary"]?["mean_ratio"] == .double(1.05))
        #expect(report["summary"]?["time_acuity_score"] == .int(90))
        #expect(report["health_record"]?["startDate"] == .string("2026-11-23T08:00:00.000+01:00"))
        #expect(report["health_record"]?["endDate"] == .string("2026-11-23T08:00:23.300+01:00"))
    }

    @Test("replay with feedback withheld: the timeline says recorded, never feedback")
    func replayWithheld() throws {
        var configuration = try SessionConfiguration(mode: .reproduction, interval: TrainingInterval(seconds: 10))
        configuration.feedback = .withheld
        let events = try ReplayScript.parse("press 12800000000\nrelease 12950000000\npress 23300000000\nrelease 23420000000").events
        let transcript = VirtualClock.run(configuration: configuration, soundAudible: true, inputs: events)
        let entries = ReplayReport.timeline(transcript.effects).compactMap { $0["effect"] }
        #expect(!entries.contains(.string("feedback")))
        #expect(entries.filter { $0 == .string("recorded") }.count == 1)
    }
}
