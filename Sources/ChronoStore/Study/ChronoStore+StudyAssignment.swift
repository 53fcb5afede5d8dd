import ChronoCore
import ChronoSync
import GRDB

/// The study a collector assigned to this device (`study_assignment`): kept when a sync reply brings
/// it, read by the daemon's snapshot to run the plan, kept through a restart and while no collector
/// answers (docs/STUDIES.md, "On the device").
extension ChronoStore {
    /// The assignment as the device keeps it: the core's value (parsed again from the kept text by the
    /// protocol's one validator) and when this device first had it.
    public struct KeptStudyAssignment: Hashable, Sendable {
        public var assignment: StudyAssignment
        /// The protocol document as the collector sent it.
        public var protocolText: String
        /// When this device first kept this assignment (wall clock).
        public var receivedUnixNanoseconds: Int64
    }

    /// What keeping an assignment did.
    public enum StudyAssignmentChange: Hashable, Sendable {
        /// The device had none, or another one (a new protocol or version, another participant).
        case assigned
        /// The device already had this one: nothing changed.
        case unchanged
    }

    /// Keeps the assignment a collector sent, through its one validator (`SyncedStudyAssignment.validated`:
    /// the document parses with `StudyProtocol.parse` and is the protocol announced; participant, index,
    /// seed and start in range). The same assignment again changes nothing (its `received` time stays);
    /// another replaces it. Refused with the reason otherwise, and the assignment kept before stays.
    @discardableResult
    public func keepStudyAssignment(_ synced: SyncedStudyAssignment, nowUnixNanoseconds now: Int64) throws(StoreError) -> StudyAssignmentChange {
        do { _ = try synced.validated() } catch {
            throw .invalidValue("The study assignment from the collector cannot be used: \(error.message); the device keeps the one it had.")
        }
        let protocolName = synced.protocolName, protocolVersion = synced.protocolVersion, participant = synced.participant
        let participantIndex = synced.participantIndex, protocolText = synced.document
        let startUnixNanoseconds = synced.startUnixNanoseconds, seed = synced.seed
        // Read first: the same assignment arrives with every receipt, and writing nothing keeps the data
        // directory's watcher (and so the daemon's snapshot) quiet.
        let same = try read { db in
            try Row.fetchOne(db, sql: """
                SELECT 1 FROM study_assignment WHERE protocol_name = ? AND protocol_version = ? AND participant = ?
                    AND participant_index = ? AND protocol_text = ? AND start_unix_ns = ? AND seed = ?
                """, arguments: [protocolName, protocolVersion, participant, participantIndex, protocolText, startUnixNanoseconds, seed])
        }
        if same != nil { return .unchanged }
        try write { db in
            try db.execute(sql: """
                INSERT INTO study_assignment (singleton, protocol_name, protocol_version, participant, participant_index,
                    protocol_text, start_unix_ns, seed, received_unix_ns)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (singleton) DO UPDATE SET protocol_name = excluded.protocol_name,
                    protocol_version = excluded.protocol_version, participant = excluded.participant,
                    participant_index = excluded.participant_index, protocol_text = excluded.protocol_text,
                    start_unix_ns = excluded.start_unix_ns, seed = excluded.seed, received_unix_ns = excluded.received_unix_ns
                """, arguments: [protocolName, protocolVersion, participant, participantIndex, protocolText, startUnixNanoseconds, seed, now])
        }
        return .assigned
    }

    /// The kept assignment, nil when there is none. A kept document this build cannot parse any more
    /// (damaged outside the store) is reported as damage, never run.
    public func studyAssignment() throws(StoreError) -> KeptStudyAssignment? {
        let row = try read { db in try Row.fetchOne(db, sql: "SELECT * FROM study_assignment") }
        guard let row else { return nil }
        let text: String = row["protocol_text"]
        let studyProtocol: StudyProtocol
        do { studyProtocol = try StudyProtocol.parse(text) } catch {
            throw .invalidValue("The kept study assignment's protocol cannot be read: \(error.description.split(separator: "\n").joined(separator: "; ")). Sync again to receive it anew.")
        }
        let assignment = StudyAssignment(studyProtocol: studyProtocol, participant: row["participant"],
                                         participantIndex: row["participant_index"], seed: row["seed"],
                                         startUnixNanoseconds: row["start_unix_ns"])
        return KeptStudyAssignment(assignment: assignment, protocolText: text, receivedUnixNanoseconds: row["received_unix_ns"])
    }

    /// Forgets the assignment (the collector's receipt carries none: the participant was unassigned).
    /// Sessions keep their tags. True when there was one; writes nothing when there was none.
    @discardableResult
    public func removeStudyAssignment() throws(StoreError) -> Bool {
        guard try read({ db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM study_assignment") ?? 0 }) > 0 else { return false }
        try write { db in try db.execute(sql: "DELETE FROM study_assignment") }
        return true
    }
}
