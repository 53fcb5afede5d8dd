/// A protocol assigned to a participant: the protocol, who, their index among the protocol's
/// participants (for counterbalancing), the shuffle seed and the instant study day 0 begins. The
/// collector keeps it; the device receives it in the sync reply (`SyncReceipt.study`) and runs its
/// plan from it, offline if need be.
public struct StudyAssignment: Hashable, Sendable {
    public var studyProtocol: StudyProtocol
    public var participant: String
    public var participantIndex: Int
    public var seed: Int64
    public var startUnixNanoseconds: Int64

    public init(studyProtocol: StudyProtocol, participant: String, participantIndex: Int, seed: Int64, startUnixNanoseconds: Int64) {
        self.studyProtocol = studyProtocol
        self.participant = participant
        self.participantIndex = participantIndex
        self.seed = seed
        self.startUnixNanoseconds = startUnixNanoseconds
    }

    /// The participant's plan.
    public var plan: StudyPlan {
        StudyPlan(studyProtocol: studyProtocol, participant: participant, participantIndex: participantIndex, seed: seed)
    }

    /// Where the participant stands at `now` with `completions`.
    public func status(completions: [StudySchedule.Completion], nowUnixNanoseconds now: Int64) -> StudySchedule.Status {
        StudySchedule.status(plan: plan, startUnixNanoseconds: startUnixNanoseconds, completions: completions, nowUnixNanoseconds: now)
    }
}
