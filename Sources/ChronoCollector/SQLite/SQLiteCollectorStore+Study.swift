import ChronoCore
import ChronoSync
import GRDB

/// Protocols and assignments on SQLite (docs/STUDIES.md); the same meaning as the PostgreSQL store's.
extension SQLiteCollectorStore {
    public func loadStudyProtocol(name: String, version: Int, document: String, fingerprint: String,
                                  nowUnixNanoseconds now: Int64) async throws -> StudyProtocolLoad {
        try await write { db in
            if let row = try Row.fetchOne(db, sql: "SELECT fingerprint, loaded_ns FROM study_protocol WHERE name = ? AND version = ?",
                                          arguments: [name, version]) {
                let held: String = row[0]
                return held == fingerprint ? .unchanged(loadedUnixNanoseconds: row[1]) : .conflict(loadedUnixNanoseconds: row[1])
            }
            try db.execute(sql: "INSERT INTO study_protocol (name, version, document, fingerprint, loaded_ns) VALUES (?, ?, ?, ?, ?)",
                           arguments: [name, version, document, fingerprint, now])
            return .added
        }
    }

    public func studyProtocols() async throws -> [StoredStudyProtocol] {
        try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT p.name, p.version, p.document, p.fingerprint, p.loaded_ns,
                    (SELECT COUNT(*) FROM study_assignment a
                     WHERE a.protocol_name = p.name AND a.protocol_version = p.version AND a.unassigned_ns IS NULL)
                FROM study_protocol p ORDER BY p.name, p.version
                """).map {
                StoredStudyProtocol(name: $0[0], version: $0[1], document: $0[2], fingerprint: $0[3], loadedUnixNanoseconds: $0[4],
                                    activeAssignments: $0[5])
            }
        }
    }

    static let assignmentColumns = CollectorStudy.assignmentColumns()

    static func assignment(_ row: Row) -> StudyAssignmentRecord {
        StudyAssignmentRecord(participant: row[0], protocolName: row[1], protocolVersion: row[2], participantIndex: row[3], seed: row[4],
                              startUnixNanoseconds: row[5], assignedUnixNanoseconds: row[6], unassignedUnixNanoseconds: row[7])
    }

    public func assignStudy(_ request: StudyAssignRequest, nowUnixNanoseconds now: Int64) async throws -> (record: StudyAssignmentRecord, change: StudyAssignChange) {
        try await write { db in
            let version: Int
            if let asked = request.protocolVersion,
               try Int.fetchOne(db, sql: "SELECT 1 FROM study_protocol WHERE name = ? AND version = ?", arguments: [request.protocolName, asked]) != nil {
                version = asked
            } else if request.protocolVersion == nil,
                      let highest = try Int.fetchOne(db, sql: "SELECT MAX(version) FROM study_protocol WHERE name = ?", arguments: [request.protocolName]) {
                version = highest
            } else {
                let loaded = try Row.fetchAll(db, sql: "SELECT name, version FROM study_protocol ORDER BY name, version").map { "\($0[0] as String)@\($0[1] as Int)" }
                throw CollectorStudy.unknownProtocol(request.protocolName, request.protocolVersion, loaded: loaded)
            }
            if let row = try Row.fetchOne(db, sql: "SELECT \(Self.assignmentColumns) FROM study_assignment WHERE participant = ? AND unassigned_ns IS NULL",
                                          arguments: [request.participant]) {
                let active = Self.assignment(row)
                guard active.protocolName == request.protocolName, active.protocolVersion == version else {
                    throw CollectorStudy.otherAssignment(request.participant, active)
                }
                return (active, .unchanged)
            }
            if let row = try Row.fetchOne(db, sql: """
                SELECT \(Self.assignmentColumns) FROM study_assignment WHERE participant = ? AND protocol_name = ? AND protocol_version = ?
                """, arguments: [request.participant, request.protocolName, version]) {
                try db.execute(sql: "UPDATE study_assignment SET unassigned_ns = NULL WHERE participant = ? AND protocol_name = ? AND protocol_version = ?",
                               arguments: [request.participant, request.protocolName, version])
                var restored = Self.assignment(row)
                restored.unassignedUnixNanoseconds = nil
                return (restored, .restored)
            }
            let index = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(participant_index) + 1, 0) FROM study_assignment WHERE protocol_name = ? AND protocol_version = ?",
                                         arguments: [request.protocolName, version]) ?? 0
            let record = StudyAssignmentRecord(participant: request.participant, protocolName: request.protocolName, protocolVersion: version,
                                               participantIndex: index, seed: request.seed, startUnixNanoseconds: request.startUnixNanoseconds,
                                               assignedUnixNanoseconds: now, unassignedUnixNanoseconds: nil)
            try db.execute(sql: "INSERT INTO study_assignment (\(Self.assignmentColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
                           arguments: [record.participant, record.protocolName, record.protocolVersion, record.participantIndex, record.seed,
                                       record.startUnixNanoseconds, record.assignedUnixNanoseconds])
            return (record, .assigned)
        }
    }

    public func unassignStudy(participant: String, nowUnixNanoseconds now: Int64) async throws -> StudyAssignmentRecord {
        try await write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT \(Self.assignmentColumns) FROM study_assignment WHERE participant = ? AND unassigned_ns IS NULL",
                                             arguments: [participant]) else {
                throw CollectorStudy.notAssigned(participant)
            }
            var record = Self.assignment(row)
            try db.execute(sql: "UPDATE study_assignment SET unassigned_ns = ? WHERE participant = ? AND unassigned_ns IS NULL", arguments: [now, participant])
            record.unassignedUnixNanoseconds = now
            return record
        }
    }

    public func studyStatus(nowUnixNanoseconds now: Int64) async throws -> [StudyStatusRow] {
        try await read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(CollectorStudy.assignmentColumns(prefix: "a.")), p.document
                FROM study_assignment a JOIN study_protocol p ON p.name = a.protocol_name AND p.version = a.protocol_version
                WHERE a.unassigned_ns IS NULL ORDER BY a.participant
                """)
            return try rows.map { row in
                let assignment = Self.assignment(row)
                let completions = try Row.fetchAll(db, sql: """
                    SELECT study_plan_position, ended_unix_ns FROM session
                    WHERE study_participant = ? AND study_protocol = ? AND study_protocol_version = ? AND status = 'completed'
                    """, arguments: [assignment.participant, assignment.protocolName, assignment.protocolVersion]).map {
                    StudySchedule.Completion(position: $0[0], endedUnixNanoseconds: $0[1])
                }
                return StudyStatusRow.make(assignment, document: row[8], completions: completions, nowUnixNanoseconds: now)
            }
        }
    }

    public func studyAssignment(deviceID: String) async throws -> SyncedStudyAssignment? {
        try await read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT \(CollectorStudy.assignmentColumns(prefix: "a.")), p.document
                FROM device d JOIN study_assignment a ON a.participant = d.participant AND a.unassigned_ns IS NULL
                JOIN study_protocol p ON p.name = a.protocol_name AND p.version = a.protocol_version
                WHERE d.id = ?
                """, arguments: [deviceID.lowercased()]) else { return nil }
            return CollectorStudy.wire(Self.assignment(row), document: row[8])
        }
    }
}
