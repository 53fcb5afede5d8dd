import ChronoCore
import Testing

/// SPEC §1's display rule for errors, the one every surface uses: the core's `DurationText` (the
/// command line's feedback and summaries) and the companion's `format.js`, which Tests/web/run's
/// `display_rule` part reads on the page for the same errors. Fractions round to whole seconds, half
/// away from zero; a sub-second error reads `0s`, never `<1s`; the direction is said apart.
@Suite("Display rule: sub-second and rounded errors")
struct DisplayRuleTests {
    /// (signed error in milliseconds, its size, the feedback line for a 10 s Challenge attempt).
    static let errors: [(Int64, String, String)] = [
        (-400, "0s", "Early by 0s · green"),
        (490, "0s", "Late by 0s · green"),
        (500, "1s", "Late by 1s · yellow"),
        (1_500, "2s", "Late by 2s · red"),
        (59_500, "1m 0s", "Late by 1m 0s · red"),
        (60_400, "1m 0s", "Late by 1m 0s · red"),
    ]

    @Test("the size of an error, in whole seconds (half away from zero), under and over a minute")
    func size() {
        for (milliseconds, size, _) in Self.errors {
            #expect(DurationText.format(seconds: Double(milliseconds) / 1000) == size, "\(milliseconds) ms")
            #expect(DurationText.format(magnitudeOf: .milliseconds(milliseconds)) == size, "\(milliseconds) ms")
        }
    }

    @Test("an attempt's feedback says the direction in words and the size by the rule")
    func feedback() throws {
        let target = try TrainingInterval(seconds: 10)
        let start = MonotonicInstant(nanoseconds: 1_000_000_000)
        for (milliseconds, _, line) in Self.errors {
            let attempt = AttemptMeasurement(index: 1, target: target, startMark: start, tapMark: start + .milliseconds(10_000 + milliseconds))
            #expect(attempt.feedbackText == line, "\(milliseconds) ms")
        }
    }
}
