import ChronoTesting
import ChronoCore
import ChronoHardware
import Testing
@testable import ChronoRuntime

/// Reproduction through the loop on virtual time with mock drivers: the presented marks played at their
/// deadlines and kept as the motor fired them, the person's presses as the marks, the console's lines.
@Suite("Reproduction through the loop on virtual time")
struct ReproductionLoopTests {
    static func ms(_ value: Int64) -> MonotonicInstant { VirtualHarness.ms(value) }

    @Test("two attempts of 300 ms: marks at 2000/2300 ms and 5090/5390 ms, reproductions of 330 and 270 ms, ratio 1.10 and 0.90")
    func twoAttempts() throws {
        let controller = SingleSessionController(configuration: try QuickSession.configuration(.reproduction, count: 2),
                                                 context: QuickSession.context(), sessionID: "R1")
        let harness = try VirtualHarness(controller: controller)
        harness.tap(at: Self.ms(1_000))   // during the first presentation's lead-in: ignored, counted
        harness.tap(at: Self.ms(2_500))
        harness.tap(at: Self.ms(2_830))   // released at 2890: feedback until 3090, next marks at 5090 and 5390
        harness.tap(at: Self.ms(5_600))
        harness.tap(at: Self.ms(5_870))
        let report = try harness.run()
        #expect(report.ending == .finished)
        #expect(harness.lines.all == [
            "Reproduction: 2 attempts. Feel the interval between two marks, then press to start reproducing it and press again when it has passed. Hold to discard.",
            "Attempt 1 of 2: feel the interval.",
            "(press ignored: pressed during the presentation)",
            "Attempt 1 of 2: press space to start your reproduction.",
            "Attempt 1 of 2: reproducing. Press space again when the same time has passed.",
            "Attempt 1 of 2: Late by 0s · yellow",
            "Attempt 2 of 2: feel the interval.",
            "Attempt 2 of 2: press space to start your reproduction.",
            "Attempt 2 of 2: reproducing. Press space again when the same time has passed.",
            "Attempt 2 of 2: Early by 0s · yellow",
            "Session complete: 2 reproductions of 300ms · mean ratio 1.00 · typical error 0s · no bias · Time Acuity 80",
        ])
        let finish = try #require(harness.recorder.finished.first)
        #expect(finish.outcome.mode == .reproduction)
        #expect(finish.outcome.attempts.map(\.startMark) == [Self.ms(2_500), Self.ms(5_600)])
        #expect(finish.outcome.attempts.map(\.tapMark) == [Self.ms(2_830), Self.ms(5_870)])
        #expect(finish.outcome.attempts.map(\.presentedStart) == [Self.ms(2_000), Self.ms(5_090)])
        #expect(finish.outcome.attempts.map(\.presentedEnd) == [Self.ms(2_300), Self.ms(5_390)])
        #expect(finish.outcome.attempts.map(\.ratio) == [1.1, 0.9])
        #expect(finish.outcome.pressesIgnoredDuringPresentation == 1)
        #expect(finish.outcome.timingLateness == nil)
        #expect(harness.onInstants.contains(Self.ms(2_000)) && harness.onInstants.contains(Self.ms(2_300)))
        #expect(harness.motor.endedOff)
    }
}
