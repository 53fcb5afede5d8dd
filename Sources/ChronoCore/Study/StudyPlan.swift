/// A participant's plan: every session of a protocol in order, each with its day and slot, block,
/// mode, interval, attempts (or repetitions) and feedback. Deterministic: the same protocol,
/// participant, participant index and seed make the same plan on the collector, the device and in
/// an analysis, so only those four need to be recorded.
public struct StudyPlan: Hashable, Sendable {
    /// One planned session.
    public struct Session: Hashable, Sendable {
        /// Its index in the plan, from 0 (`StudyTag.planPosition`).
        public var position: Int
        /// The study day, from 0, and the session's slot in that day, from 0.
        public var day: Int
        public var slot: Int
        public var blockIndex: Int
        public var blockName: String
        public var condition: String
        public var mode: SessionMode
        public var interval: TrainingInterval
        /// Attempts (attempt modes) or repetitions (Passive).
        public var count: Int
        public var fearThreshold: Double
        public var feedback: FeedbackPolicy
        /// Withheld feedback is shown when the block's last session ends.
        public var revealAtBlockEnd: Bool
        /// Whether this is the block's last session (where withheld results are revealed).
        public var isLastInBlock: Bool
        /// Whether the participant must have accepted the protocol's consent text first (Fear).
        public var needsConsent: Bool

        /// The time this session is given before its study day ends (docs/STUDIES.md, "The day's
        /// end"): its attempts or repetitions at its interval — twice the interval for Reproduction,
        /// which presents it before the person reproduces it — plus 10 s each for the press that
        /// starts it and the feedback, rounded up to whole minutes (the study line shows minutes).
        /// The minimum gap never makes a session due later than its day's end less this.
        public var dayEndReserve: TimeSpan {
            let perInterval: Int64 = mode == .reproduction ? 2 : 1
            let seconds = Int64(count) * (interval.span.nanoseconds / 1_000_000_000 * perInterval + 10)
            return .seconds((seconds + 59) / 60 * 60)
        }
    }

    public var protocolName: String
    public var protocolVersion: Int
    public var participant: String
    /// The participant's place among those assigned the protocol, from 0: it picks the Latin square
    /// row of counterbalanced blocks.
    public var participantIndex: Int
    /// The shuffle seed (`StudyLimits.seeds`).
    public var seed: Int64
    public var schedule: StudyProtocol.Schedule
    public var sessions: [Session]

    /// The plan of `studyProtocol` for one participant. Block after block; each block's intervals
    /// in `StudyOrder.indexes`; position i falls on day i / sessions per day, slot i mod sessions
    /// per day.
    public init(studyProtocol: StudyProtocol, participant: String, participantIndex: Int, seed: Int64) {
        protocolName = studyProtocol.name
        protocolVersion = studyProtocol.version
        self.participant = participant
        self.participantIndex = participantIndex
        self.seed = seed
        schedule = studyProtocol.schedule
        var sessions: [Session] = []
        let perDay = max(1, studyProtocol.schedule.sessionsPerDay)
        for (blockIndex, block) in studyProtocol.blocks.enumerated() {
            let order = StudyOrder.indexes(count: block.intervals.count, sessions: block.sessions, order: block.order, seed: seed,
                                           blockIndex: blockIndex, participantIndex: participantIndex)
            for (index, intervalIndex) in order.enumerated() {
                let position = sessions.count
                sessions.append(Session(
                    position: position, day: position / perDay, slot: position % perDay, blockIndex: blockIndex,
                    blockName: block.name, condition: block.condition, mode: block.mode, interval: block.intervals[intervalIndex],
                    count: block.count, fearThreshold: block.fearThreshold, feedback: block.feedback,
                    revealAtBlockEnd: block.revealAtBlockEnd, isLastInBlock: index == order.count - 1,
                    needsConsent: block.mode == .fear))
            }
        }
        self.sessions = sessions
    }

    /// Whether the withheld results of the block that `tag` names are shown when that block ends (the
    /// protocol's `reveal_at_block_end`). False for a block that shows feedback (nothing is withheld)
    /// and for a tag of another protocol, version or participant than this plan's: what that
    /// protocol said is not known here, so its results stay withheld for good.
    public func revealsAtBlockEnd(_ tag: StudyTag) -> Bool {
        guard !tag.feedbackShown, tag.protocolName == protocolName, tag.protocolVersion == protocolVersion,
              tag.participant == participant else { return false }
        return sessions.first { $0.blockIndex == tag.blockIndex }?.revealAtBlockEnd ?? false
    }

    /// The tag a device puts on the session it runs for `session`.
    public func tag(for session: Session) -> StudyTag {
        StudyTag(protocolName: protocolName, protocolVersion: protocolVersion, participant: participant, blockIndex: session.blockIndex,
                 blockName: session.blockName, planPosition: session.position, condition: session.condition,
                 feedbackShown: session.feedback == .shown)
    }
}
