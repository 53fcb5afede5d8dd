import Testing
@testable import ChronoCore

@Suite("Progress: trend, series, strips")
struct ProgressTests {
    @Test("trend tolerance is 10 % of the earlier typical error, either way")
    func trend() {
        #expect(ProgressTrend.judge(recent: 8.9, earlier: 10) == .improving)
        #expect(ProgressTrend.judge(recent: 9.0, earlier: 10) == .aboutTheSame)
        #expect(ProgressTrend.judge(recent: 11.0, earlier: 10) == .aboutTheSame)
        #expect(ProgressTrend.judge(recent: 11.1, earlier: 10) == .worse)
        #expect(ProgressTrend.judge(recent: nil, earlier: 10) == .notEnoughData)
        #expect(ProgressTrend.judge(recent: 3, earlier: nil) == .notEnoughData)
    }

    @Test("missing days are gaps, never zero bars")
    func sparklineGaps() {
        let series = DailySeries(lastDay: 100, dayCount: 5, valuesByDay: [96: 0, 98: 100, 100: 50])
        #expect(series.values == [0, nil, 100, nil, 50])
        #expect(series.sparkline(scaleMax: 100) == "▁ █ ▅")
        #expect(DailySeries.dayText(0) == "1970-01-01")
    }

    @Test("typical error is the mean over attempts, not over session means")
    func accumulator() {
        var errors = ErrorAccumulator()
        let target = try! TrainingInterval(seconds: 100)
        let one = [AttemptMeasurement(index: 1, target: target, startMark: .zero, tapMark: .zero + .seconds(110))]
        let three = (1...3).map { AttemptMeasurement(index: $0, target: target, startMark: .zero, tapMark: .zero + .seconds(102)) }
        errors.add(SessionMetrics(attempts: one))
        errors.add(SessionMetrics(attempts: three))
        #expect(errors.meanAbsErrorSeconds == 4)
        #expect(errors.timeAcuityScore == 92)
        #expect(ErrorAccumulator().meanAbsErrorSeconds == nil)
    }

    @Test("zones strip and the empty state")
    func text() {
        #expect(ZoneStrip.render([.green, .yellow, .red]) == "GYR")
        let empty = ProgressReport(today: 0, intervals: [], completedByMode: [:], abortedSessions: 0, interruptedSessions: 0,
                                   recentSessions: [], daily: [:], onlyInterval: nil)
        #expect(ProgressText.render(empty).hasPrefix("No sessions yet."))
        #expect(empty.modeMix.map(\.share) == [0, 0, 0])
    }
}
