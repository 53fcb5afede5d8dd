/// Which study session a session was: the protocol (name and version), the participant, the block
/// (its index in the protocol and its name), the session's position in the participant's plan, the
/// block's condition label and whether feedback was shown. A device fills it when it runs a planned
/// session; it travels as `SyncedSession.study` and both stores keep it in columns, so an analysis
/// groups attempts by participant, block and condition without re-deriving the plan. A session run
/// outside a study (the person's own presets) has none.
public struct StudyTag: Codable, Hashable, Sendable {
    /// The protocol's name (`StudyProtocol.name`).
    public var protocolName: String
    /// The protocol's version (`StudyProtocol.version`): a (name, version) pair never changes meaning.
    public var protocolVersion: Int
    /// The participant the plan was made for.
    public var participant: String
    /// The block's index in the protocol, from 0.
    public var blockIndex: Int
    /// The block's name (`StudyProtocol.Block.name`).
    public var blockName: String
    /// The session's index in the participant's plan, from 0 (`StudyPlan.Session.position`).
    public var planPosition: Int
    /// The block's condition label (`StudyProtocol.Block.condition`; the block's name unless the
    /// protocol gives one).
    public var condition: String
    /// Whether the person saw the error, zone and score after each press (false: feedback withheld).
    public var feedbackShown: Bool

    public init(protocolName: String, protocolVersion: Int, participant: String, blockIndex: Int, blockName: String,
                planPosition: Int, condition: String, feedbackShown: Bool) {
        self.protocolName = protocolName
        self.protocolVersion = protocolVersion
        self.participant = participant
        self.blockIndex = blockIndex
        self.blockName = blockName
        self.planPosition = planPosition
        self.condition = condition
        self.feedbackShown = feedbackShown
    }

    /// Its names on the sync wire and in the collector's JSON (`SyncedSession.study`, docs/SYNC.md):
    /// this type is the wire's form too, so the two cannot drift apart. Swift's own `Codable`, not
    /// Foundation: the core still imports nothing.
    enum CodingKeys: String, CodingKey {
        case protocolName = "protocol_name"
        case protocolVersion = "protocol_version"
        case participant
        case blockIndex = "block_index"
        case blockName = "block_name"
        case planPosition = "plan_position"
        case condition
        case feedbackShown = "feedback_shown"
    }

    /// Checks a tag that came from outside (a batch, a stored row) with the protocol's own bounds:
    /// names as `StudyNames` allows them, version, indexes and position inside the protocol limits.
    /// Returns a sentence naming the field and the fix, or nil when the tag is valid.
    public func problem() -> String? {
        if let problem = StudyNames.problem(protocolName, what: "the study tag's protocol name") { return problem }
        guard StudyLimits.versions.contains(protocolVersion) else {
            return "the study tag's protocol version \(protocolVersion) is outside \(StudyLimits.versions.lowerBound)…\(StudyLimits.versions.upperBound)"
        }
        if let problem = StudyNames.labelProblem(participant, what: "the study tag's participant") { return problem }
        guard (0..<StudyLimits.blocks.upperBound).contains(blockIndex) else {
            return "the study tag's block index \(blockIndex) is outside 0…\(StudyLimits.blocks.upperBound - 1)"
        }
        if let problem = StudyNames.problem(blockName, what: "the study tag's block name") { return problem }
        guard (0..<StudyLimits.planSessions).contains(planPosition) else {
            return "the study tag's plan position \(planPosition) is outside 0…\(StudyLimits.planSessions - 1)"
        }
        if let problem = StudyNames.labelProblem(condition, what: "the study tag's condition") { return problem }
        return nil
    }
}
