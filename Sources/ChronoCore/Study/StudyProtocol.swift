/// A study protocol: what each participant does, block by block, on which days. Read from a JSON
/// document (docs/STUDIES.md has the format and a worked example) by `StudyProtocol.parse`, the one
/// validator: a value exists only if every field is inside the core's limits, so the collector, the
/// device and the analysis never check it again. A (name, version) pair names one protocol for ever:
/// a changed protocol is a new version.
public struct StudyProtocol: Hashable, Sendable {
    /// The protocol's name, an identifier (`StudyNames`), e.g. `sleep-2026`.
    public var name: String
    /// Its version, a positive whole number.
    public var version: Int
    /// The text a participant accepts before any Fear block; required when a block is Fear (the
    /// aversive sound is opt-in, SPEC §2), optional otherwise.
    public var consent: String?
    /// The blocks, run in order.
    public var blocks: [Block]
    /// When the plan's sessions fall.
    public var schedule: Schedule
    /// The researchers' own note on the protocol; never shown to a participant.
    public var description: String?

    public init(name: String, version: Int, consent: String?, blocks: [Block], schedule: Schedule, description: String? = nil) {
        self.name = name
        self.version = version
        self.consent = consent
        self.blocks = blocks
        self.schedule = schedule
        self.description = description
    }

    /// One block: `sessions` sessions of one mode, their intervals in the block's order, the same
    /// count of attempts (or repetitions) and the same feedback.
    public struct Block: Hashable, Sendable {
        /// An identifier, unique in the protocol.
        public var name: String
        /// The label an analysis groups by; the block's name unless the document gives one.
        public var condition: String
        public var mode: SessionMode
        /// How many sessions the block holds.
        public var sessions: Int
        /// The intervals, as listed; `order` says how sessions take them.
        public var intervals: [TrainingInterval]
        public var order: IntervalOrder
        /// Attempts (attempt modes) or repetitions (Passive) per session, in `SessionConfiguration.countRange`.
        public var count: Int
        /// Fear's threshold as a fraction (0.10 is 10 %); the core's default unless given (Fear only).
        public var fearThreshold: Double
        public var feedback: FeedbackPolicy
        /// With feedback withheld: whether the block's results are shown when its last session ends
        /// (true), or never on the device (false). Always false with feedback shown.
        public var revealAtBlockEnd: Bool

        public init(name: String, condition: String, mode: SessionMode, sessions: Int, intervals: [TrainingInterval],
                    order: IntervalOrder, count: Int, fearThreshold: Double, feedback: FeedbackPolicy, revealAtBlockEnd: Bool) {
            self.name = name
            self.condition = condition
            self.mode = mode
            self.sessions = sessions
            self.intervals = intervals
            self.order = order
            self.count = count
            self.fearThreshold = fearThreshold
            self.feedback = feedback
            self.revealAtBlockEnd = revealAtBlockEnd
        }
    }

    /// How a block's sessions take its intervals (`StudyOrder` makes the sequence).
    public enum IntervalOrder: String, Hashable, Sendable, CaseIterable {
        /// In the listed order, over and over.
        case fixed
        /// A fresh random permutation for each pass through the list, from the assignment's seed.
        case shuffled
        /// A balanced Latin square row chosen by the participant's index, so across participants each
        /// interval comes at each place (and after each other interval) equally often.
        case counterbalanced
    }

    /// When sessions fall: `sessionsPerDay` a day for `days` days, at least `minimumGapMinutes`
    /// apart. The plan fills the days in order, so the blocks' sessions add up to days × sessions per day.
    public struct Schedule: Hashable, Sendable {
        public var sessionsPerDay: Int
        public var days: Int
        public var minimumGapMinutes: Int

        public init(sessionsPerDay: Int, days: Int, minimumGapMinutes: Int) {
            self.sessionsPerDay = sessionsPerDay
            self.days = days
            self.minimumGapMinutes = minimumGapMinutes
        }

        /// The gap as a span.
        public var minimumGap: TimeSpan { .seconds(Int64(minimumGapMinutes) * 60) }
    }

    /// Whether a participant must accept the consent text before block `index` (a Fear block).
    public func needsConsent(beforeBlock index: Int) -> Bool {
        blocks.indices.contains(index) && blocks[index].mode == .fear
    }

    /// The sessions of the whole plan.
    public var totalSessions: Int { blocks.reduce(0) { $0 + $1.sessions } }
}
