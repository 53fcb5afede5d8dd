import ChronoCore
import ChronoSync

/// A protocol the collector holds: its document as loaded (what devices receive), its fingerprint
/// (`StudyProtocol.fingerprint`, what "the same content" means) and when it was loaded.
public struct StoredStudyProtocol: Hashable, Sendable {
    public var name: String
    public var version: Int
    public var document: String
    public var fingerprint: String
    public var loadedUnixNanoseconds: Int64
    /// Participants it is assigned to now.
    public var activeAssignments: Int

    public init(name: String, version: Int, document: String, fingerprint: String, loadedUnixNanoseconds: Int64, activeAssignments: Int) {
        self.name = name
        self.version = version
        self.document = document
        self.fingerprint = fingerprint
        self.loadedUnixNanoseconds = loadedUnixNanoseconds
        self.activeAssignments = activeAssignments
    }
}

/// What loading a protocol did: a (name, version) keeps its first document for ever.
public enum StudyProtocolLoad: Hashable, Sendable {
    /// New: stored.
    case added
    /// Held already with the same meaning (same fingerprint): nothing changed.
    case unchanged(loadedUnixNanoseconds: Int64)
    /// Held already with other content: refused, nothing changed (a changed protocol is a new version).
    case conflict(loadedUnixNanoseconds: Int64)
}

/// A participant's assignment as stored: the protocol, the participant's index among the
/// protocol's participants (counterbalancing), the seed, the start of study day 0, and when it was
/// made (and ended, for one unassigned).
public struct StudyAssignmentRecord: Hashable, Sendable {
    public var participant: String
    public var protocolName: String
    public var protocolVersion: Int
    public var participantIndex: Int
    public var seed: Int64
    public var startUnixNanoseconds: Int64
    public var assignedUnixNanoseconds: Int64
    public var unassignedUnixNanoseconds: Int64?

    public init(participant: String, protocolName: String, protocolVersion: Int, participantIndex: Int, seed: Int64,
                startUnixNanoseconds: Int64, assignedUnixNanoseconds: Int64, unassignedUnixNanoseconds: Int64?) {
        self.participant = participant
        self.protocolName = protocolName
        self.protocolVersion = protocolVersion
        self.participantIndex = participantIndex
        self.seed = seed
        self.startUnixNanoseconds = startUnixNanoseconds
        self.assignedUnixNanoseconds = assignedUnixNanoseconds
        self.unassignedUnixNanoseconds = unassignedUnixNanoseconds
    }

    /// `sleep-2026@1`.
    public var protocolLabel: String { "\(protocolName)@\(protocolVersion)" }
}

/// What `assignStudy` did.
public enum StudyAssignChange: Hashable, Sendable {
    /// A new assignment, with the next participant index of the protocol.
    case assigned
    /// The participant had this protocol before and was unassigned: the same index, seed and start again.
    case restored
    /// The participant has this protocol already: nothing changed.
    case unchanged
}

/// A request to assign: the protocol by name and, optionally, version (nil: the highest loaded).
public struct StudyAssignRequest: Hashable, Sendable {
    public var participant: String
    public var protocolName: String
    public var protocolVersion: Int?
    public var seed: Int64
    public var startUnixNanoseconds: Int64

    public init(participant: String, protocolName: String, protocolVersion: Int?, seed: Int64, startUnixNanoseconds: Int64) {
        self.participant = participant
        self.protocolName = protocolName
        self.protocolVersion = protocolVersion
        self.seed = seed
        self.startUnixNanoseconds = startUnixNanoseconds
    }
}

/// The collector's study decisions both stores share: the messages, and the status of an
/// assignment from its protocol and the sessions stored with its tag.
public enum CollectorStudy {
    /// The assignment table's columns in the order both stores read them (`StudyAssignmentRecord`'s fields).
    static func assignmentColumns(prefix: String = "") -> String {
        ["participant", "protocol_name", "protocol_version", "participant_index", "seed", "start_ns", "assigned_ns", "unassigned_ns"]
            .map { prefix + $0 }.joined(separator: ", ")
    }

    /// `NAME` or `NAME@VERSION` as typed, checked; the version nil when not given.
    public static func reference(_ text: String) throws(CollectorError) -> (name: String, version: Int?) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 2, StudyNames.problem(parts[0], what: "") == nil else {
            throw .invalidValue("'\(TerminalSafeText.sanitized(text, keepNewlines: false).prefix(80))' is not a protocol: write NAME or NAME@VERSION, e.g. sleep-2026@2 (`chronoception-collector protocol list` shows them).")
        }
        guard parts.count == 2 else { return (parts[0], nil) }
        guard let version = Int(parts[1]), StudyLimits.versions.contains(version) else {
            throw .invalidValue("'\(TerminalSafeText.sanitized(parts[1], keepNewlines: false).prefix(20))' is not a version: write a whole number from 1, e.g. \(parts[0])@2.")
        }
        return (parts[0], version)
    }

    static func unknownProtocol(_ name: String, _ version: Int?, loaded: [String]) -> CollectorError {
        let label = version.map { "\(name)@\($0)" } ?? name
        let list = loaded.isEmpty ? "none is loaded" : "loaded: " + loaded.joined(separator: ", ")
        return .invalidValue("No protocol \(label) is loaded (\(list)). Load it first: `chronoception-collector protocol load FILE`.")
    }

    static func otherAssignment(_ participant: String, _ active: StudyAssignmentRecord) -> CollectorError {
        .invalidValue("Participant '\(participant)' is assigned \(active.protocolLabel) already; a participant follows one protocol at a time. Unassign it first: `chronoception-collector protocol unassign --participant \(participant)`.")
    }

    static func notAssigned(_ participant: String) -> CollectorError {
        .invalidValue("Participant '\(participant)' has no protocol assigned (`chronoception-collector protocol status` lists the assignments).")
    }

    /// The assignment as the device receives it, or nil when its stored document no longer parses
    /// (which the validator at load time prevents).
    static func wire(_ record: StudyAssignmentRecord, document: String) -> SyncedStudyAssignment {
        SyncedStudyAssignment(protocolName: record.protocolName, protocolVersion: record.protocolVersion, document: document,
                              participant: record.participant, participantIndex: record.participantIndex,
                              startUnixNanoseconds: record.startUnixNanoseconds, seed: record.seed)
    }
}

/// One participant's standing, as `protocol status` shows it.
public struct StudyStatusRow: Hashable, Sendable {
    public var assignment: StudyAssignmentRecord
    /// Nil when the stored document cannot be read (never expected: it passed the validator at load).
    public var status: StudySchedule.Status?
    /// Sessions in the plan.
    public var total: Int

    public init(assignment: StudyAssignmentRecord, status: StudySchedule.Status?, total: Int) {
        self.assignment = assignment
        self.status = status
        self.total = total
    }

    /// The status of `assignment` from its protocol's document and the sessions stored with its tag.
    public static func make(_ assignment: StudyAssignmentRecord, document: String, completions: [StudySchedule.Completion],
                            nowUnixNanoseconds now: Int64) -> StudyStatusRow {
        guard let parsed = try? StudyProtocol.parse(document) else { return StudyStatusRow(assignment: assignment, status: nil, total: 0) }
        let full = StudyAssignment(studyProtocol: parsed, participant: assignment.participant, participantIndex: assignment.participantIndex,
                                   seed: assignment.seed, startUnixNanoseconds: assignment.startUnixNanoseconds)
        return StudyStatusRow(assignment: assignment, status: full.status(completions: completions, nowUnixNanoseconds: now),
                              total: full.plan.sessions.count)
    }
}
