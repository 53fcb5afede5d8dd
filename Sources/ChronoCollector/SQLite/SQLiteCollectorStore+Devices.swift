import ChronoSync
import GRDB

extension SQLiteCollectorStore {
    static let deviceColumns = """
        d.id, d.name, d.participant, d.board, d.software_version, d.enrolled_ns, d.revoked_ns, d.last_seen_ns,
        (SELECT COUNT(*) FROM session s WHERE s.device_id = d.id), d.refused_sessions,
        d.consent_decision, d.consent_decided_ns, d.consent_protocol, d.consent_protocol_version, d.consent_text_sha256
        """

    static func device(_ row: Row) -> CollectorDevice {
        var device = CollectorDevice(id: row[0], name: row[1], participant: row[2], board: row[3], softwareVersion: row[4],
                                     enrolledUnixNanoseconds: row[5], revokedUnixNanoseconds: row[6], lastSeenUnixNanoseconds: row[7], sessionCount: row[8],
                                     refusedSessionCount: row[9])
        device.consent = CollectorConsentColumns.record(decision: row[10], decided: row[11], protocolName: row[12], version: row[13], digest: row[14])
        return device
    }

    public func addEnrolment(_ enrolment: PendingEnrolment, nowUnixNanoseconds now: Int64) async throws {
        try await write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM device WHERE name = ? AND revoked_ns IS NULL", arguments: [enrolment.name]) == true {
                throw CollectorError.invalidValue("A device called '\(enrolment.name)' is enrolled; revoke it first (`chronoception-collector revoke \(enrolment.name)`) or choose another name.")
            }
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM enrolment_code WHERE name = ? AND used_ns IS NULL AND expires_ns > ?",
                                 arguments: [enrolment.name, now]) == true {
                // The older code would enrol a second device under the same name: it is withdrawn.
                try db.execute(sql: "UPDATE enrolment_code SET expires_ns = ? WHERE name = ? AND used_ns IS NULL AND expires_ns > ?",
                               arguments: [now, enrolment.name, now])
            }
            try db.execute(sql: """
                INSERT INTO enrolment_code (code_sha256, name, participant, created_ns, expires_ns) VALUES (?, ?, ?, ?, ?)
                """, arguments: [enrolment.codeSHA256, enrolment.name, enrolment.participant, enrolment.createdUnixNanoseconds,
                                 enrolment.expiresUnixNanoseconds])
        }
    }

    public func redeemEnrolment(codeSHA256: String, request: EnrolmentRequest, keySHA256: String,
                                nowUnixNanoseconds now: Int64) async throws -> CollectorDevice {
        let deviceID = request.deviceID.lowercased()
        return try await write { db in
            guard let code = try Row.fetchOne(db, sql: "SELECT name, participant, expires_ns, used_ns FROM enrolment_code WHERE code_sha256 = ?",
                                              arguments: [codeSHA256]) else {
                throw CollectorError.codeRefused("This enrolment code is not known to the collector. Ask for a new one (`chronoception-collector enrol NAME` on the collector).")
            }
            let name: String = code[0], participant: String? = code[1], expires: Int64 = code[2], used: Int64? = code[3]
            guard used == nil else {
                throw CollectorError.codeRefused("This enrolment code was already used; each code enrols one device once. Ask for a new one.")
            }
            guard expires > now else {
                throw CollectorError.codeRefused("This enrolment code has expired. Ask for a new one (`chronoception-collector enrol \(name)`).")
            }
            // One row per physical device: an enrolled ID is never renamed or re-keyed by a code (a copy
            // of its data directory would take it over); a revoked one may come back.
            if let enrolled = try String.fetchOne(db, sql: "SELECT name FROM device WHERE id = ? AND revoked_ns IS NULL", arguments: [deviceID]) {
                throw CollectorError.deviceEnrolled(CollectorMessages.deviceEnrolled(id: deviceID, name: enrolled))
            }
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM device WHERE name = ? AND revoked_ns IS NULL AND id <> ?", arguments: [name, deviceID]) == true {
                throw CollectorError.codeRefused("Another device was enrolled as '\(name)' since this code was made. Ask for a new code.")
            }
            try db.execute(sql: "UPDATE enrolment_code SET used_ns = ?, device_id = ? WHERE code_sha256 = ?", arguments: [now, deviceID, codeSHA256])
            // A revoked device enrolling again (a lost key, a re-flashed card) keeps its UUID and its sessions.
            try db.execute(sql: """
                INSERT INTO device (id, name, participant, board, software_version, key_sha256, enrolled_ns)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET name = excluded.name, participant = excluded.participant, board = excluded.board,
                    software_version = excluded.software_version, key_sha256 = excluded.key_sha256,
                    enrolled_ns = excluded.enrolled_ns, revoked_ns = NULL
                """, arguments: [deviceID, name, participant, request.board, request.softwareVersion, keySHA256, now])
            let row = try Row.fetchOne(db, sql: "SELECT \(Self.deviceColumns) FROM device d WHERE d.id = ?", arguments: [deviceID])!
            return Self.device(row)
        }
    }

    public func device(keySHA256: String) async throws -> CollectorDevice? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.deviceColumns) FROM device d WHERE d.key_sha256 = ?", arguments: [keySHA256]).map(Self.device)
        }
    }

    public func devices() async throws -> [CollectorDevice] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.deviceColumns) FROM device d ORDER BY d.name, d.enrolled_ns").map(Self.device)
        }
    }

    public func revokeDevice(named name: String, nowUnixNanoseconds now: Int64) async throws -> CollectorDevice {
        try await write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT \(Self.deviceColumns) FROM device d WHERE d.name = ? AND d.revoked_ns IS NULL",
                                             arguments: [name]) else {
                throw CollectorError.unknownDevice(try Self.unknownDeviceMessage(db, name))
            }
            var device = Self.device(row)
            try db.execute(sql: "UPDATE device SET revoked_ns = ? WHERE id = ?", arguments: [now, device.id])
            device.revokedUnixNanoseconds = now
            return device
        }
    }

    static func unknownDeviceMessage(_ db: Database, _ name: String) throws -> String {
        let names = try String.fetchAll(db, sql: "SELECT name FROM device WHERE revoked_ns IS NULL ORDER BY name LIMIT 10")
        return CollectorMessages.unknownDevice(name, enrolled: names)
    }

    /// The enrolled (not revoked) device called `name`.
    static func activeDevice(_ db: Database, named name: String) throws -> CollectorDevice {
        guard let row = try Row.fetchOne(db, sql: "SELECT \(deviceColumns) FROM device d WHERE d.name = ? AND d.revoked_ns IS NULL",
                                         arguments: [name]) else {
            throw CollectorError.unknownDevice(try unknownDeviceMessage(db, name))
        }
        return device(row)
    }

    public func addReaderKey(_ key: ReaderKey, keySHA256: String) async throws {
        try await write { db in
            try db.execute(sql: "INSERT INTO reader_key (id, name, key_sha256, created_ns) VALUES (?, ?, ?, ?)",
                           arguments: [key.id, key.name, keySHA256, key.createdUnixNanoseconds])
        }
    }

    public func readerKey(keySHA256: String) async throws -> ReaderKey? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT id, name, created_ns FROM reader_key WHERE key_sha256 = ?", arguments: [keySHA256])
                .map { ReaderKey(id: $0[0], name: $0[1], createdUnixNanoseconds: $0[2]) }
        }
    }

    public func readerKeys() async throws -> [ReaderKey] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, created_ns FROM reader_key ORDER BY name")
                .map { ReaderKey(id: $0[0], name: $0[1], createdUnixNanoseconds: $0[2]) }
        }
    }

    public func revokeReaderKey(_ idOrName: String) async throws -> ReaderKey {
        try await write { db in
            func keys(_ sql: String, _ arguments: StatementArguments = []) throws -> [ReaderKey] {
                try Row.fetchAll(db, sql: "SELECT id, name, created_ns FROM reader_key \(sql)", arguments: arguments)
                    .map { ReaderKey(id: $0[0], name: $0[1], createdUnixNanoseconds: $0[2]) }
            }
            let byID = try keys("WHERE id = ?", [idOrName]).first
            let byName = byID == nil ? try keys("WHERE name = ? ORDER BY id", [idOrName]) : []
            let all = byID == nil && byName.isEmpty ? try keys("ORDER BY name LIMIT 10") : []
            let key = try CollectorMessages.readerKeyToRevoke(idOrName, byID: byID, byName: byName, all: all)
            try db.execute(sql: "DELETE FROM reader_key WHERE id = ?", arguments: [key.id])
            return key
        }
    }
}
