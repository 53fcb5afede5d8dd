import ChronoCore

/// A device's study assignment as the collector sends it in `SyncReceipt.study`: the protocol
/// document exactly as loaded (the device parses it with the same validator), its name and version,
/// the participant, their index among the protocol's participants (counterbalancing), the shuffle
/// seed and the instant study day 0 begins. Absent when the device's participant has no assignment
/// on this collector (or the collector is older than studies).
public struct SyncedStudyAssignment: Codable, Hashable, Sendable {
    public var protocolName: String
    public var protocolVersion: Int
    /// The protocol's JSON document, as `collector protocol load` read it.
    public var document: String
    public var participant: String
    public var participantIndex: Int
    public var startUnixNanoseconds: Int64
    public var seed: Int64

    public init(protocolName: String, protocolVersion: Int, document: String, participant: String, participantIndex: Int,
                startUnixNanoseconds: Int64, seed: Int64) {
        self.protocolName = protocolName
        self.protocolVersion = protocolVersion
        self.document = document
        self.participant = participant
        self.participantIndex = participantIndex
        self.startUnixNanoseconds = startUnixNanoseconds
        self.seed = seed
    }

    /// The assignment checked with the core's validator: the document parses, its name and version
    /// are the ones announced, and participant, index, seed and start are in range. The error is one
    /// sentence naming what is wrong (the device keeps the assignment it had).
    public func validated() throws(SyncStudyError) -> StudyAssignment {
        let parsed: StudyProtocol
        do { parsed = try StudyProtocol.parse(document) } catch {
            throw SyncStudyError(message: "the study protocol \(protocolName)@\(protocolVersion) from the collector is not valid: \(error.problems.first?.description ?? "")")
        }
        guard parsed.name == protocolName, parsed.version == protocolVersion else {
            throw SyncStudyError(message: "the collector announced protocol \(protocolName)@\(protocolVersion) but sent \(parsed.name)@\(parsed.version)")
        }
        if let problem = StudyNames.labelProblem(participant, what: "the assignment's participant") { throw SyncStudyError(message: problem) }
        guard participantIndex >= 0, participantIndex < 1_000_000 else {
            throw SyncStudyError(message: "the assignment's participant index \(participantIndex) is outside 0…999999")
        }
        guard StudyLimits.seeds.contains(seed) else {
            throw SyncStudyError(message: "the assignment's seed \(seed) is outside \(StudyLimits.seeds.lowerBound)…\(StudyLimits.seeds.upperBound)")
        }
        guard TimeLimits.isAcceptedWallClock(unixNanoseconds: startUnixNanoseconds) else {
            throw SyncStudyError(message: "the assignment's start \(startUnixNanoseconds) ns is outside the years 1970–2099")
        }
        return StudyAssignment(studyProtocol: parsed, participant: participant, participantIndex: participantIndex, seed: seed,
                               startUnixNanoseconds: startUnixNanoseconds)
    }

    /// The wire form of an assignment and the document it was parsed from.
    public init(_ assignment: StudyAssignment, document: String) {
        self.init(protocolName: assignment.studyProtocol.name, protocolVersion: assignment.studyProtocol.version, document: document,
                  participant: assignment.participant, participantIndex: assignment.participantIndex,
                  startUnixNanoseconds: assignment.startUnixNanoseconds, seed: assignment.seed)
    }

    enum CodingKeys: String, CodingKey {
        case protocolName = "protocol_name"
        case protocolVersion = "protocol_version"
        case document, participant
        case participantIndex = "participant_index"
        case startUnixNanoseconds = "start_unix_ns"
        case seed
    }
}

/// Why a device refuses the assignment a collector sent.
public struct SyncStudyError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
