import ChronoCore
import ChronoSync
import PostgresNIO

/// Protocols and assignments on PostgreSQL (docs/STUDIES.md); the same meaning as the SQLite store's.
/// Loads and assignments take an advisory lock on the protocol's name, so two at once are applied
/// one after the other (the unique keys would otherwise refuse the second with a database error).
extension PostgresCollectorStore {
    public func loadStudyProtocol(name: String, version: Int, document: String, fingerprint: String,
                                  nowUnixNanoseconds now: Int64) async throws -> StudyProtocolLoad {
        let logger = self.logger
        let version64 = Int64(version)
        return try await transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\("study:" + name)))", logger: logger)
            if let row = try await Self.all(connection, "SELECT fingerprint, loaded_ns FROM study_protocol WHERE name = \(name) AND version = \(version64)", logger).first {
                let held = try row[0].decode(String.self), loaded = try row[1].decode(Int64.self)
                return held == fingerprint ? .unchanged(loadedUnixNanoseconds: loaded) : .conflict(loadedUnixNanoseconds: loaded)
            }
            try await connection.query("""
                INSERT INTO study_protocol (name, version, document, fingerprint, loaded_ns)
                VALUES (\(name), \(version64), \(document), \(fingerprint), \(now))
                """, logger: logger)
            return .added
        }
    }

    public func studyProtocols() async throws -> [StoredStudyProtocol] {
        try await rows("""
            SELECT p.name, p.version, p.document, p.fingerprint, p.loaded_ns,
                (SELECT COUNT(*) FROM study_assignment a
                 WHERE a.protocol_name = p.name AND a.protocol_version = p.version AND a.unassigned_ns IS NULL)
            FROM study_protocol p ORDER BY p.name, p.version
            """).map {
            StoredStudyProtocol(name: try $0[0].decode(String.self), version: Int(try $0[1].decode(Int64.self)), document: try $0[2].decode(String.self),
                                fingerprint: try $0[3].decode(String.self), loadedUnixNanoseconds: try $0[4].decode(Int64.self),
                                activeAssignments: Int(try $0[5].decode(Int64.self)))
        }
    }

    static func assignment(_ row: PostgresRandomAccessRow) throws -> StudyAssignmentRecord {
        StudyAssignmentRecord(participant: try row[0].decode(String.self), protocolName: try row[1].decode(String.self),
                              protocolVersion: Int(try row[2].decode(Int64.self)), participantIndex: Int(try row[3].decode(Int64.self)),
                              seed: try row[4].decode(Int64.self), startUnixNanoseconds: try row[5].decode(Int64.self),
                              assignedUnixNanoseconds: try row[6].decode(Int64.self), unassignedUnixNanoseconds: try row[7].decode(Int64?.self))
    }

    public func assignStudy(_ request: StudyAssignRequest, nowUnixNanoseconds now: Int64) async throws -> (record: StudyAssignmentRecord, change: StudyAssignChange) {
        let logger = self.logger
        return try await transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\("study:" + request.protocolName)))", logger: logger)
            try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\("participant:" + request.participant)))", logger: logger)
            let name = request.protocolName
            var version: Int64?
            if let asked = request.protocolVersion.map(Int64.init) {
                if try await !Self.all(connection, "SELECT 1 FROM study_protocol WHERE name = \(name) AND version = \(asked)", logger).isEmpty { version = asked }
            } else if let row = try await Self.all(connection, "SELECT MAX(version) FROM study_protocol WHERE name = \(name)", logger).first {
                version = try row[0].decode(Int64?.self)
            }
            guard let version else {
                let loaded = try await Self.all(connection, "SELECT name, version FROM study_protocol ORDER BY name, version", logger).map {
                    "\(try $0[0].decode(String.self))@\(try $0[1].decode(Int64.self))"
                }
                throw CollectorStudy.unknownProtocol(name, request.protocolVersion, loaded: loaded)
            }
            let participant = request.participant
            if let row = try await Self.all(connection, "SELECT \(unescaped: CollectorStudy.assignmentColumns()) FROM study_assignment WHERE participant = \(participant) AND unassigned_ns IS NULL", logger).first {
                let active = try Self.assignment(row)
                guard active.protocolName == name, Int64(active.protocolVersion) == version else {
                    throw CollectorStudy.otherAssignment(participant, active)
                }
                return (active, .unchanged)
            }
            if let row = try await Self.all(connection, "SELECT \(unescaped: CollectorStudy.assignmentColumns()) FROM study_assignment WHERE participant = \(participant) AND protocol_name = \(name) AND protocol_version = \(version)", logger).first {
                try await connection.query("UPDATE study_assignment SET unassigned_ns = NULL WHERE participant = \(participant) AND protocol_name = \(name) AND protocol_version = \(version)", logger: logger)
                var restored = try Self.assignment(row)
                restored.unassignedUnixNanoseconds = nil
                return (restored, .restored)
            }
            let next = try await Self.all(connection, "SELECT COALESCE(MAX(participant_index) + 1, 0) FROM study_assignment WHERE protocol_name = \(name) AND protocol_version = \(version)", logger)
            let index = try next.first?[0].decode(Int64.self) ?? 0
            let record = StudyAssignmentRecord(participant: participant, protocolName: name, protocolVersion: Int(version), participantIndex: Int(index),
                                               seed: request.seed, startUnixNanoseconds: request.startUnixNanoseconds,
                                               assignedUnixNanoseconds: now, unassignedUnixNanoseconds: nil)
            try await connection.query("""
                INSERT INTO study_assignment (participant, protocol_name, protocol_version, participant_index, seed, start_ns, assigned_ns)
                VALUES (\(participant), \(name), \(version), \(index), \(record.seed), \(record.startUnixNanoseconds), \(now))
                """, logger: logger)
            return (record, .assigned)
        }
    }

    public func unassignStudy(participant: String, nowUnixNanoseconds now: Int64) async throws -> StudyAssignmentRecord {
        let logger = self.logger
        return try await transaction { connection in
            guard let row = try await Self.all(connection, "SELECT \(unescaped: CollectorStudy.assignmentColumns()) FROM study_assignment WHERE participant = \(participant) AND unassigned_ns IS NULL FOR UPDATE", logger).first else {
                throw CollectorStudy.notAssigned(participant)
            }
            var record = try Self.assignment(row)
            try await connection.query("UPDATE study_assignment SET unassigned_ns = \(now) WHERE participant = \(participant) AND unassigned_ns IS NULL", logger: logger)
            record.unassignedUnixNanoseconds = now
            return record
        }
    }

    public func studyStatus(nowUnixNanoseconds now: Int64) async throws -> [StudyStatusRow] {
        let logger = self.logger
        return try await transaction { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            let rows = try await Self.all(connection, """
                SELECT \(unescaped: CollectorStudy.assignmentColumns(prefix: "a.")), p.document
                FROM study_assignment a JOIN study_protocol p ON p.name = a.protocol_name AND p.version = a.protocol_version
                WHERE a.unassigned_ns IS NULL ORDER BY a.participant
                """, logger)
            var result: [StudyStatusRow] = []
            for row in rows {
                let assignment = try Self.assignment(row)
                let version = Int64(assignment.protocolVersion)
                let completions = try await Self.all(connection, """
                    SELECT study_plan_position, ended_unix_ns FROM session
                    WHERE study_participant = \(assignment.participant) AND study_protocol = \(assignment.protocolName) AND study_protocol_version = \(version) AND status = 'completed'
                    """, logger).map {
                    StudySchedule.Completion(position: Int(try $0[0].decode(Int64.self)), endedUnixNanoseconds: try $0[1].decode(Int64.self))
                }
                result.append(StudyStatusRow.make(assignment, document: try row[8].decode(String.self), completions: completions, nowUnixNanoseconds: now))
            }
            return result
        }
    }

    public func studyAssignment(deviceID: String) async throws -> SyncedStudyAssignment? {
        let id = deviceID.lowercased()
        guard let row = try await rows("""
            SELECT \(unescaped: CollectorStudy.assignmentColumns(prefix: "a.")), p.document
            FROM device d JOIN study_assignment a ON a.participant = d.participant AND a.unassigned_ns IS NULL
            JOIN study_protocol p ON p.name = a.protocol_name AND p.version = a.protocol_version
            WHERE d.id = \(id)
            """).first else { return nil }
        return CollectorStudy.wire(try Self.assignment(row), document: try row[8].decode(String.self))
    }
}
