import ChronoCore
import ChronoSync

/// What a collector knows of the device pushing a batch, for its sessions' study tags: the
/// participant it was enrolled for, and every protocol that participant was assigned (active or ended:
/// a session run before an unassignment arrives after it).
public struct IngestStudyFacts: Hashable, Sendable {
    public var participant: String?
    /// `(protocol name, version)` pairs.
    public var assigned: Set<StudyProtocolReference>

    public init(participant: String?, assigned: Set<StudyProtocolReference>) {
        self.participant = participant
        self.assigned = assigned
    }
}

/// A protocol by its name and version (`sleep-2026@1`).
public struct StudyProtocolReference: Hashable, Sendable {
    public var name: String
    public var version: Int

    public init(name: String, version: Int) {
        self.name = name
        self.version = version
    }
}

/// The ingest rule for study tags (docs/SYNC.md, "Study tags at ingest"): a device's tag is a claim
/// that the session was run for its participant's plan, and a device enrolled as P1 cannot speak for
/// P2. A session whose tag names another participant, or a protocol its participant was never
/// assigned, is refused on its own (the rest of the batch is stored), with the reason in the receipt,
/// and counted on the device. Pure: the store gathers the facts inside its ingest transaction.
public enum IngestStudyTags {
    /// The rule a session breaks when its tag names a participant that is not the device's.
    public static let participantRule = "session_study_participant"
    /// The rule a session breaks when its participant was never assigned the tag's protocol.
    public static let protocolRule = "session_study_protocol"

    /// Why the collector refuses `session`'s tag, or nil (no tag, or the device's own assignment).
    public static func refusal(_ session: IngestPlan.Session, facts: IngestStudyFacts) -> SyncRefusedSession? {
        guard let tag = session.wire.study else { return nil }
        let id = session.wire.id
        guard let participant = facts.participant else {
            return SyncRefusedSession(sessionID: id, rule: participantRule,
                                      reason: "the session is tagged for participant \(tag.participant), but this device is enrolled for no participant; enrol it with `chronoception-collector enrol NAME --participant \(tag.participant)`")
        }
        guard tag.participant == participant else {
            return SyncRefusedSession(sessionID: id, rule: participantRule,
                                      reason: "the session is tagged for participant \(tag.participant), but this device is enrolled for \(participant); a device reports its own participant's sessions only")
        }
        guard facts.assigned.contains(StudyProtocolReference(name: tag.protocolName, version: tag.protocolVersion)) else {
            return SyncRefusedSession(sessionID: id, rule: protocolRule,
                                      reason: "the session is tagged for protocol \(tag.protocolName)@\(tag.protocolVersion), which participant \(participant) was never assigned on this collector")
        }
        return nil
    }
}

extension IngestPlan {
    /// The plan without the sessions `IngestStudyTags` refuses, and those refusals in batch order.
    public func admitting(_ facts: IngestStudyFacts) -> (plan: IngestPlan, refused: [SyncRefusedSession]) {
        var admitted: [Session] = []
        var refused: [SyncRefusedSession] = []
        for session in sessions {
            if let refusal = IngestStudyTags.refusal(session, facts: facts) { refused.append(refusal) } else { admitted.append(session) }
        }
        var plan = self
        plan.sessions = admitted
        return (plan, refused)
    }
}
