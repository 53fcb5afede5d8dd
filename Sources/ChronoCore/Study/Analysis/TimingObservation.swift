/// One timed attempt as the study analysis takes it: who, under which condition, the target and the
/// produced (or reproduced) duration in nanoseconds straight from the kernel-stamped marks
/// (`tap − start`), never a rounded display value.
public struct TimingObservation: Hashable, Sendable {
    /// The participant (the device's name when the device has no participant).
    public var participant: String
    /// The device's name.
    public var device: String
    public var group: AnalysisGroup
    public var sessionID: String
    /// The session's start (Unix nanoseconds): the order of sessions for the learning trend.
    public var sessionStartUnixNanoseconds: Int64
    public var attemptIndex: Int
    public var targetNanoseconds: Int64
    /// `tap − start` of the attempt (monotonic nanoseconds of one boot).
    public var producedNanoseconds: Int64
    /// Whether the person saw error, zone or score during the session (the study tag's flag; sessions
    /// outside a study always showed them).
    public var feedbackShown: Bool

    public init(participant: String, device: String, group: AnalysisGroup, sessionID: String, sessionStartUnixNanoseconds: Int64,
                attemptIndex: Int, targetNanoseconds: Int64, producedNanoseconds: Int64, feedbackShown: Bool) {
        self.participant = participant
        self.device = device
        self.group = group
        self.sessionID = sessionID
        self.sessionStartUnixNanoseconds = sessionStartUnixNanoseconds
        self.attemptIndex = attemptIndex
        self.targetNanoseconds = targetNanoseconds
        self.producedNanoseconds = producedNanoseconds
        self.feedbackShown = feedbackShown
    }

    /// `(produced − target) / target`, from the integer difference so no precision is lost first.
    public var relativeError: Double { Double(producedNanoseconds - targetNanoseconds) / Double(targetNanoseconds) }
    public var producedSeconds: Double { Double(producedNanoseconds) / 1e9 }
}

/// What the analysis keeps apart for one participant: the protocol and its version, the condition
/// label of the study tag, and the mode (production and reproduction are different tasks). Sessions
/// outside any study have no protocol and no condition.
public struct AnalysisGroup: Hashable, Sendable, Comparable {
    public var protocolName: String?
    public var protocolVersion: Int?
    public var condition: String?
    public var mode: String

    public init(protocolName: String?, protocolVersion: Int?, condition: String?, mode: String) {
        self.protocolName = protocolName
        self.protocolVersion = protocolVersion
        self.condition = condition
        self.mode = mode
    }

    public static func < (a: AnalysisGroup, b: AnalysisGroup) -> Bool {
        (a.protocolName ?? "", a.protocolVersion ?? 0, a.condition ?? "", a.mode) < (b.protocolName ?? "", b.protocolVersion ?? 0, b.condition ?? "", b.mode)
    }
}
