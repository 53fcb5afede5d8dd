/// The study figures per participant (docs/STUDIES.md, "Analysis"): for each group (protocol,
/// condition, mode) and target interval, n, mean produced duration, its ratio to the target, SD and
/// coefficient of variation; the scalar property across intervals (the OLS slope of SD against mean
/// is the Weber fraction, with its 95 % t interval); the bias (mean relative error, with its
/// interval); the learning trend (each session's mean |relative error| against its order, slope per
/// session with its interval); and feedback shown against withheld (Welch intervals for the
/// differences). Every figure comes from `TimingObservation`'s nanoseconds. Pure; the same input in
/// any order gives the same report.
public struct StudyAnalysis: Hashable, Sendable {
    /// One participant × group × target interval.
    public struct Cell: Hashable, Sendable {
        public var targetNanoseconds: Int64
        public var count: Int
        public var meanProducedSeconds: Double
        /// Mean produced ÷ target.
        public var ratio: Double
        /// Sample SD of the produced durations (seconds); nil below two attempts.
        public var standardDeviationSeconds: Double?
        /// SD ÷ mean; nil below two attempts.
        public var coefficientOfVariation: Double?
        public var meanSignedErrorSeconds: Double
        public var meanAbsoluteErrorSeconds: Double
    }

    /// One participant's figures in one group.
    public struct GroupReport: Hashable, Sendable {
        public var group: AnalysisGroup
        public var sessions: Int
        public var attempts: Int
        /// Shortest target first.
        public var cells: [Cell]
        /// Mean relative error `(produced − target) / target` over every attempt, with its interval.
        public var bias: Estimate
        /// SD against mean over the cells with at least two attempts: slope = Weber fraction. Nil
        /// below two such cells.
        public var scalarProperty: LineFit?
        /// The mean of those cells' coefficients of variation (another reading of the Weber fraction).
        public var meanCoefficientOfVariation: Double?
        /// Each session's mean |relative error| against its order (1, 2, …): slope per session.
        /// Nil below two sessions.
        public var learning: LineFit?
    }

    /// Attempts with feedback shown against attempts with it withheld, for one mode.
    public struct FeedbackComparison: Hashable, Sendable {
        public var mode: String
        public var shownAttempts: Int
        public var withheldAttempts: Int
        /// Mean |relative error| withheld − shown (Welch).
        public var absoluteErrorDifference: Estimate
        /// Mean relative error withheld − shown (Welch).
        public var biasDifference: Estimate
    }

    /// Everything about one participant.
    public struct ParticipantReport: Hashable, Sendable {
        public var participant: String
        /// The devices their sessions came from, by name.
        public var devices: [String]
        public var groups: [GroupReport]
        /// One per mode that has attempts both with and without feedback.
        public var feedback: [FeedbackComparison]
    }

    /// By participant.
    public var participants: [ParticipantReport]

    public init(_ observations: [TimingObservation]) {
        var byParticipant: [String: [TimingObservation]] = [:]
        for observation in observations where observation.targetNanoseconds > 0 {
            byParticipant[observation.participant, default: []].append(observation)
        }
        participants = byParticipant.keys.sorted().map { name in
            Self.participant(name, Self.ordered(byParticipant[name]!))
        }
    }

    /// Sessions by start then id, attempts by index: the report never depends on the input's order.
    static func ordered(_ observations: [TimingObservation]) -> [TimingObservation] {
        observations.sorted {
            ($0.sessionStartUnixNanoseconds, $0.sessionID, $0.attemptIndex) < ($1.sessionStartUnixNanoseconds, $1.sessionID, $1.attemptIndex)
        }
    }

    static func participant(_ name: String, _ observations: [TimingObservation]) -> ParticipantReport {
        var byGroup: [AnalysisGroup: [TimingObservation]] = [:]
        var byMode: [String: [TimingObservation]] = [:]
        for observation in observations {
            byGroup[observation.group, default: []].append(observation)
            byMode[observation.group.mode, default: []].append(observation)
        }
        let groups = byGroup.keys.sorted().map { group(byGroup[$0]!, $0) }
        let feedback = byMode.keys.sorted().compactMap { mode -> FeedbackComparison? in
            let all = byMode[mode]!
            let shown = all.filter(\.feedbackShown), withheld = all.filter { !$0.feedbackShown }
            guard !shown.isEmpty, !withheld.isEmpty else { return nil }
            let shownAbs = Summary(shown.map { abs($0.relativeError) }), withheldAbs = Summary(withheld.map { abs($0.relativeError) })
            return FeedbackComparison(
                mode: mode, shownAttempts: shown.count, withheldAttempts: withheld.count,
                absoluteErrorDifference: Estimate.welchDifference(withheldAbs, shownAbs),
                biasDifference: Estimate.welchDifference(Summary(withheld.map(\.relativeError)), Summary(shown.map(\.relativeError))))
        }
        return ParticipantReport(participant: name, devices: Set(observations.map(\.device)).sorted(), groups: groups, feedback: feedback)
    }

    static func group(_ observations: [TimingObservation], _ group: AnalysisGroup) -> GroupReport {
        var byTarget: [Int64: [TimingObservation]] = [:]
        for observation in observations { byTarget[observation.targetNanoseconds, default: []].append(observation) }
        let cells = byTarget.keys.sorted().map { target -> Cell in
            let attempts = byTarget[target]!
            let produced = Summary(attempts.map(\.producedSeconds))
            let targetSeconds = Double(target) / 1e9
            return Cell(
                targetNanoseconds: target, count: produced.count, meanProducedSeconds: produced.mean,
                ratio: produced.mean / targetSeconds, standardDeviationSeconds: produced.standardDeviation,
                coefficientOfVariation: produced.standardDeviation.map { $0 / produced.mean },
                meanSignedErrorSeconds: Summary(attempts.map { Double($0.producedNanoseconds - target) / 1e9 }).mean,
                meanAbsoluteErrorSeconds: Summary(attempts.map { Double(abs($0.producedNanoseconds - target)) / 1e9 }).mean)
        }
        let spread = cells.filter { $0.standardDeviationSeconds != nil }
        let coefficients = spread.compactMap(\.coefficientOfVariation)

        // Sessions in order of start (observations arrive ordered).
        var sessionOrder: [String] = []
        var sessionErrors: [String: [Double]] = [:]
        for observation in observations {
            if sessionErrors[observation.sessionID] == nil { sessionOrder.append(observation.sessionID) }
            sessionErrors[observation.sessionID, default: []].append(abs(observation.relativeError))
        }
        let perSession = sessionOrder.map { Summary(sessionErrors[$0]!).mean }

        return GroupReport(
            group: group, sessions: sessionOrder.count, attempts: observations.count, cells: cells,
            bias: Summary(observations.map(\.relativeError)).meanEstimate,
            scalarProperty: LineFit(x: spread.map(\.meanProducedSeconds), y: spread.map { $0.standardDeviationSeconds! }),
            meanCoefficientOfVariation: coefficients.isEmpty ? nil : coefficients.reduce(0, +) / Double(coefficients.count),
            learning: LineFit(x: perSession.indices.map { Double($0 + 1) }, y: perSession))
    }
}
