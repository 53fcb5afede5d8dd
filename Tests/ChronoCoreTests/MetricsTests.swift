import Testing
@testable import ChronoCore

@Suite("Metrics, zones and Time Acuity Score (SPEC §3)")
struct MetricsTests {
    let minute = try! TrainingInterval(seconds: 60)

    func attempt(_ index: Int = 1, target: TrainingInterval, elapsedNanoseconds: Int64, start: Int64 = 1_000_000_000) -> AttemptMeasurement {
        AttemptMeasurement(index: index, target: target, startMark: MonotonicInstant(nanoseconds: start),
                           tapMark: MonotonicInstant(nanoseconds: start + elapsedNanoseconds))
    }

    @Test("the spec's worked scores", arguments: [(0.05, 90), (0.10, 80), (0.25, 50), (0.50, 0), (0.75, 0), (0.0, 100), (2.0, 0)])
    func workedScores(error: Double, score: Int) {
        #expect(TimeAcuityScore.score(meanAbsPercentError: error) == score)
    }

    @Test("scores round half away from zero")
    func roundingHalfAway() {
        // 1 − 0.0025/0.5 = 0.995 → 99.5 → 100; 0.0075 → 98.5 → 99.
        #expect(TimeAcuityScore.score(meanAbsPercentError: 0.0025) == 100)
        #expect(TimeAcuityScore.score(meanAbsPercentError: 0.0075) == 99)
    }

    @Test("zone edges sit exactly at 5 % and 15 %")
    func zoneEdges() {
        #expect(ErrorZone(absPercentError: 0.049999) == .green)
        #expect(ErrorZone(absPercentError: 0.05) == .yellow)
        #expect(ErrorZone(absPercentError: 0.149999) == .yellow)
        #expect(ErrorZone(absPercentError: 0.15) == .red)
        // From real marks: 3 s late on 60 s is exactly 5 %, 9 s early exactly 15 %.
        #expect(attempt(target: minute, elapsedNanoseconds: 63_000_000_000).zone == .yellow)
        #expect(attempt(target: minute, elapsedNanoseconds: 51_000_000_000).zone == .red)
        #expect(attempt(target: minute, elapsedNanoseconds: 62_999_999_999).zone == .green)
    }

    @Test("one attempt: errors and feedback text")
    func oneAttempt() {
        let late = attempt(target: minute, elapsedNanoseconds: 63_000_000_000)
        #expect(late.signedErrorSeconds == 3)
        #expect(late.percentError == 0.05)
        #expect(late.direction == .late)
        #expect(late.feedbackText == "Late by 3s · yellow")
        let early = attempt(target: try! TrainingInterval(seconds: 300), elapsedNanoseconds: 235_000_000_000)
        #expect(early.feedbackText == "Early by 1m 5s · red")
        let onTime = attempt(target: minute, elapsedNanoseconds: 60_000_000_000)
        #expect(onTime.feedbackText == "On time · green")
        let metrics = SessionMetrics(attempts: [late])
        #expect(metrics.stdDevErrorSeconds == 0)
        #expect(metrics.meanAbsPercentError == 0.05)
        #expect(metrics.timeAcuityScore == 90)
    }

    @Test("session metrics of a worked three-attempt example")
    func threeAttempts() {
        // Errors on 60 s: +3, −6, +1.5 s.
        let attempts = [
            attempt(1, target: minute, elapsedNanoseconds: 63_000_000_000),
            attempt(2, target: minute, elapsedNanoseconds: 54_000_000_000),
            attempt(3, target: minute, elapsedNanoseconds: 61_500_000_000),
        ]
        let metrics = SessionMetrics(attempts: attempts)
        #expect(metrics.meanAbsErrorSeconds == 3.5)
        #expect(metrics.meanSignedErrorSeconds == -0.5)
        // Sample SD of (3, −6, 1.5): mean −0.5, squares 12.25 + 30.25 + 4 = 46.5, / 2 = 23.25.
        #expect(abs(metrics.stdDevErrorSeconds - 23.25.squareRoot()) < 1e-12)
        #expect(abs(metrics.meanAbsPercentError - 3.5 / 60) < 1e-15)
        #expect(metrics.timeAcuityScore == 88)  // 100 × (1 − 0.058333/0.5) = 88.33
    }

    @Test("raw marks are kept however early or late")
    func rawMarks() {
        let veryEarly = attempt(target: minute, elapsedNanoseconds: 200_000_000)
        #expect(veryEarly.signedError == .nanoseconds(-59_800_000_000))
        #expect(veryEarly.zone == .red)
        let veryLate = attempt(target: minute, elapsedNanoseconds: 3_600_000_000_000)
        #expect(veryLate.percentError == 59)
        #expect(SessionMetrics(attempts: [veryLate]).timeAcuityScore == 0)
    }

    @Test("property: score within 0–100 and never rising with error")
    func scoreMonotone() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let a = Double.random(in: 0...2, using: &generator)
            let b = Double.random(in: 0...2, using: &generator)
            let low = min(a, b), high = max(a, b)
            let scoreLow = TimeAcuityScore.score(meanAbsPercentError: low)
            let scoreHigh = TimeAcuityScore.score(meanAbsPercentError: high)
            #expect((0...100).contains(scoreLow) && (0...100).contains(scoreHigh))
            #expect(scoreHigh <= scoreLow)
        }
    }

    @Test("property: metrics equal a direct recomputation")
    func metricsRecompute() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let target = try TrainingInterval(seconds: Int.random(in: 10...7259, using: &generator))
            let count = Int.random(in: 1...12, using: &generator)
            var attempts: [AttemptMeasurement] = []
            var start: Int64 = 0
            for index in 1...count {
                let elapsed = Int64.random(in: 1...(target.span.nanoseconds * 3), using: &generator)
                attempts.append(attempt(index, target: target, elapsedNanoseconds: elapsed, start: start))
                start += elapsed + 5_000_000_000
            }
            let errors = attempts.map { Double($0.tapMark.nanoseconds - $0.startMark.nanoseconds) / 1e9 - Double(target.seconds) }
            let n = Double(count)
            let mean = errors.reduce(0, +) / n
            let sd = count == 1 ? 0 : (errors.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / (n - 1)).squareRoot()
            let mape = errors.map { abs($0) / Double(target.seconds) }.reduce(0, +) / n
            let metrics = SessionMetrics(attempts: attempts)
            #expect(abs(metrics.meanSignedErrorSeconds - mean) <= 1e-9 * max(1, abs(mean)))
            #expect(abs(metrics.meanAbsErrorSeconds - errors.map(abs).reduce(0, +) / n) <= 1e-6)
            #expect(abs(metrics.stdDevErrorSeconds - sd) <= 1e-9 * max(1, sd))
            #expect(abs(metrics.meanAbsPercentError - mape) <= 1e-12)
            #expect(metrics.timeAcuityScore == Int((100 * min(max(1 - mape / 0.5, 0), 1)).rounded(.toNearestOrAwayFromZero)))
        }
    }
}
