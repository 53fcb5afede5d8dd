import Testing
import ChronoCore
@testable import ChronoSimulation

@Suite("Arbitrary edge sequences never break the engine")
struct ArbitraryInputTests {
    /// Random edges of any shape: repeated levels, simultaneous edges, holds of 0 ns to 10 s, sound
    /// events and an optional end, in every mode and with random timing settings.
    @Test("2000 random inputs: no crash, no hang, marks come from real presses, deadlines never past")
    func randomInputs() throws {
        var random = SplitMix64(seed: 2026)
        for _ in 0..<2000 {
            let mode = SessionMode.allCases.randomElement(using: &random)!
            let interval = try TrainingInterval(seconds: Int.random(in: 10...40, using: &random))
            let debounce = Int64.random(in: 0...50, using: &random)
            let configuration = try SessionConfiguration(
                mode: mode, interval: interval, plannedCount: Int.random(in: 1...4, using: &random),
                timing: SessionTiming(feedbackDuration: .milliseconds(Int64.random(in: 0...3000, using: &random)),
                                      abortConfirmWindow: .milliseconds(Int64.random(in: 1...6000, using: &random)),
                                      autoStartNextAttempt: random.chance(0.5)),
                gestures: GestureSettings(debounce: .milliseconds(debounce),
                                          longPress: .milliseconds(debounce + Int64.random(in: 1...2000, using: &random))))
            var events: [SessionEvent] = []
            var t: Int64 = 0
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                t += random.chance(0.1) ? 0 : Int64.random(in: 0...12_000_000_000, using: &random)
                let roll = Int.random(in: 0..<20, using: &random)
                let at = MonotonicInstant(nanoseconds: t)
                switch roll {
                case 0: events.append(.soundLost(at: at))
                case 1: events.append(.soundRestored(at: at))
                case 2 where random.chance(0.2): events.append(.endRequested(at: at))
                default: events.append(.button(RawButtonEdge(pressed: roll % 2 == 0, at: at)))
                }
            }
            let presses = Set(events.compactMap { event -> MonotonicInstant? in
                if case .button(let edge) = event, edge.pressed { return edge.at } else { return nil }
            })
            let transcript = VirtualClock.run(configuration: configuration, soundAudible: random.chance(0.5), inputs: events)
            #expect(transcript.deadlinesInThePast.isEmpty)
            guard let outcome = transcript.outcome else { continue }
            for attempt in outcome.attempts {
                #expect(presses.contains(attempt.tapMark))
                #expect(attempt.tapMark >= attempt.startMark)
            }
            #expect(zip(outcome.attempts, outcome.attempts.dropFirst()).allSatisfy { $0.tapMark <= $1.startMark })
            if outcome.status == .completed, mode.usesAttempts {
                #expect(outcome.attempts.count == configuration.plannedCount)
            }
            if outcome.status != .completed {
                let anchor = WallClockAnchor(unixNanoseconds: 0, monotonic: .zero, utcOffsetSeconds: 0)
                #expect(HealthRecordBuilder.decide(for: outcome, sessionID: "ID", device: "d", anchor: anchor).record == nil)
            }
        }
    }
}
