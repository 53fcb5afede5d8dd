import Testing
@testable import ChronoCore

/// The study analysis's arithmetic on numbers worked by hand (Tests/studies/recovery checks the same
/// figures against numpy on a simulated study).
@Suite struct StudyAnalysisTests {
    static func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-12) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= tolerance * max(1, abs(b))
    }

    @Test func tQuantilesFromTheTableAndTheExpansion() {
        #expect(StudentT.quantile975(degreesOfFreedom: 1) == 12.706204736)
        #expect(StudentT.quantile975(degreesOfFreedom: 30) == 2.042272456)
        // t(0.975, 60) = 2.000297822, t(0.975, 120) = 1.979930405 (R's qt).
        #expect(Self.close(StudentT.quantile975(degreesOfFreedom: 60), 2.000297822, 1e-8))
        #expect(Self.close(StudentT.quantile975(degreesOfFreedom: 120), 1.979930405, 1e-8))
        #expect(StudentT.quantile975(degreesOfFreedom: 0.5) == nil)
        // Between table rows (Welch's fractional df): between the neighbours.
        let between = StudentT.quantile975(degreesOfFreedom: 4.5)!
        #expect(between < 2.776445105 && between > 2.570581836)
    }

    @Test func summaryIsTheTwoPassMeanAndSampleSD() {
        let summary = Summary([1, 2, 3, 4])
        #expect(summary.count == 4)
        #expect(summary.mean == 2.5)
        #expect(Self.close(summary.standardDeviation, (5.0 / 3).squareRoot()))
        // Mean ± t(3)·SD/√n.
        let estimate = summary.meanEstimate
        #expect(Self.close(estimate.lower, 2.5 - 3.182446305 * (5.0 / 3).squareRoot() / 2))
        #expect(Summary([7]).standardDeviation == nil)
        #expect(Summary([7]).meanEstimate.lower == nil)
    }

    @Test func lineFitSlopeInterceptAndSlopeInterval() throws {
        let fit = try #require(LineFit(x: [1, 2, 3], y: [2, 4, 7]))
        #expect(Self.close(fit.slope.value, 2.5))
        #expect(Self.close(fit.intercept, -2.0 / 3))
        // Residuals 1/6, −1/3, 1/6: SSR 1/6, SE = √(SSR / 1 / Sxx) = √(1/12).
        let half = 12.706204736 * (1.0 / 12).squareRoot()
        #expect(Self.close(fit.slope.lower, 2.5 - half))
        #expect(Self.close(fit.slope.upper, 2.5 + half))
        #expect(Self.close(fit.rSquared, 1 - (1.0 / 6) / (38.0 / 3)))
        #expect(LineFit(x: [1, 1], y: [2, 3]) == nil)
        #expect(LineFit(x: [1, 2], y: [2, 3])?.slope.lower == nil)
    }

    @Test func welchDifferenceUsesSatterthwaiteDegreesOfFreedom() {
        let a = Summary([1, 2, 3, 4]), b = Summary([2, 4, 6])
        let difference = Estimate.welchDifference(a, b)
        #expect(difference.value == -1.5)
        let va = (5.0 / 3) / 4, vb = 4.0 / 3
        let df = (va + vb) * (va + vb) / (va * va / 3 + vb * vb / 2)
        let t = StudentT.quantile975(degreesOfFreedom: df)!
        #expect(Self.close(difference.lower, -1.5 - t * (va + vb).squareRoot()))
    }

    static func observation(_ participant: String, session: String, start: Int64, index: Int, target seconds: Int64, produced: Int64,
                            condition: String? = nil, feedback: Bool = true) -> TimingObservation {
        TimingObservation(participant: participant, device: participant + "-pi",
                          group: AnalysisGroup(protocolName: condition == nil ? nil : "sleep", protocolVersion: condition == nil ? nil : 1,
                                               condition: condition, mode: "reproduction"),
                          sessionID: session, sessionStartUnixNanoseconds: start, attemptIndex: index,
                          targetNanoseconds: seconds * 1_000_000_000, producedNanoseconds: produced, feedbackShown: feedback)
    }

    @Test func cellsScalarPropertyBiasAndLearningFromRawNanoseconds() throws {
        // 10 s: 9.5, 10.5, 11 s; 20 s: 19, 21, 23 s — two sessions, in reverse input order.
        let observations = [
            Self.observation("P1", session: "b", start: 2, index: 0, target: 20, produced: 19_000_000_000),
            Self.observation("P1", session: "b", start: 2, index: 1, target: 20, produced: 21_000_000_000),
            Self.observation("P1", session: "b", start: 2, index: 2, target: 20, produced: 23_000_000_000),
            Self.observation("P1", session: "a", start: 1, index: 0, target: 10, produced: 9_500_000_000),
            Self.observation("P1", session: "a", start: 1, index: 1, target: 10, produced: 10_500_000_000),
            Self.observation("P1", session: "a", start: 1, index: 2, target: 10, produced: 11_000_000_000),
        ]
        let analysis = StudyAnalysis(observations)
        #expect(analysis == StudyAnalysis(observations.reversed()))
        let group = try #require(analysis.participants.first?.groups.first)
        #expect(group.sessions == 2 && group.attempts == 6)
        #expect(group.cells.map(\.targetNanoseconds) == [10_000_000_000, 20_000_000_000])
        let ten = group.cells[0], twenty = group.cells[1]
        #expect(Self.close(ten.meanProducedSeconds, 31.0 / 3))
        #expect(Self.close(ten.ratio, 31.0 / 30))
        #expect(Self.close(ten.standardDeviationSeconds, (7.0 / 12).squareRoot()))
        #expect(Self.close(ten.coefficientOfVariation, (7.0 / 12).squareRoot() / (31.0 / 3)))
        #expect(Self.close(twenty.meanProducedSeconds, 21) && Self.close(twenty.standardDeviationSeconds, 2))
        #expect(Self.close(ten.meanAbsoluteErrorSeconds, 2.0 / 3))
        // Two cells: the slope of SD on mean, with no interval (no residual degree of freedom).
        let fit = try #require(group.scalarProperty)
        #expect(Self.close(fit.slope.value, (2 - (7.0 / 12).squareRoot()) / (21 - 31.0 / 3)))
        #expect(fit.slope.lower == nil)
        // Bias: mean of (produced − target) / target over the six attempts.
        let relative = [-0.05, 0.05, 0.1, -0.05, 0.05, 0.15]
        #expect(Self.close(group.bias.value, relative.reduce(0, +) / 6))
        // Learning: session a's mean |error| (0.2/3) then b's (0.25/3).
        let learning = try #require(group.learning)
        #expect(Self.close(learning.slope.value, 0.05 / 3))
    }

    @Test func conditionsAreKeptApartAndFeedbackIsCompared() throws {
        var observations: [TimingObservation] = []
        for (index, produced) in [10_100_000_000, 10_300_000_000, 9_900_000_000].enumerated() {
            observations.append(Self.observation("P2", session: "on", start: 1, index: index, target: 10, produced: Int64(produced), condition: "training"))
        }
        for (index, produced) in [11_000_000_000, 9_000_000_000, 10_500_000_000].enumerated() {
            observations.append(Self.observation("P2", session: "off", start: 2, index: index, target: 10, produced: Int64(produced), condition: "test", feedback: false))
        }
        let report = try #require(StudyAnalysis(observations).participants.first)
        #expect(report.groups.map(\.group.condition) == ["test", "training"])
        #expect(report.devices == ["P2-pi"])
        let comparison = try #require(report.feedback.first)
        #expect(comparison.shownAttempts == 3 && comparison.withheldAttempts == 3)
        // Mean |relative error| withheld (0.1, 0.1, 0.05) − shown (0.01, 0.03, 0.01).
        #expect(Self.close(comparison.absoluteErrorDifference.value, 0.25 / 3 - 0.05 / 3))
        #expect(comparison.absoluteErrorDifference.lower != nil)
    }
}
