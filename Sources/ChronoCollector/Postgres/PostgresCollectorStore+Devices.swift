import ChronoSync
import PostgresNIO

extension PostgresCollectorStore {
    static let deviceColumns = """
        d.id, d.name, d.participant, d.board, d.software_version, d.enrolled_ns, d.revoked_ns, d.last_seen_ns,
        (SELECT COUNT(*) FROM session s WHERE s.device_id = d.id), d.refused_sessions,
        d.consent_decision, d.consent_decided_ns, d.consent_protocol, d.consent_protocol_version, d.consent_text_sha256
        """

    static func device(_ row: PostgresRandomAccessRow) throws -> CollectorDevice {
        var device = CollectorDevice(id: try row[0].decode(String.self), name: try row[1].decode(String.self), participant: try row[2].decode(String?.self),
                        board: try row[3].decode(String.self), softwareVersion: try row[4].decode(String.self),
                        enrolledUnixNanoseconds: try row[5].decode(Int64.self), revokedUnixNanoseconds: try row[6].decode(Int64?.self),
                        lastSeenUnixNanoseconds: try row[7].decode(Int64?.self), sessionCount: Int(try row[8].decode(Int64.self)),
                        refusedSessionCount: Int(clamping: try row[9].decode(Int64.self)))
        device.consent = CollectorConsentColumns.record(
            decision: try row[10].decode(String?.self), decided: try row[11].decode(Int64?.self), protocolName: try row[12].decode(String?.self),
            version: try row[13].decode(Int64?.self).map { Int(clamping: $0) }, digest: try row[14].decode(String?.self))
        return device
    }

    /// Every row of a query on a connection (inside a transaction).
    static func all(_ connection: PostgresConnection, _ query: PostgresQuery, _ logger: Logger) async throws -> [PostgresRandomAccessRow] {
        var result: [PostgresRandomAccessRow] = []
        for try await row in try await connection.query(query, logger: logger) { result.append(row.makeRandomAccess()) }
        return result
    }

    public func addEnrolment(_ enrolment: PendingEnrolment, nowUnixNanoseconds now: Int64) async throws {
        let logger = self.logger
        try await transaction { connection in
            // Serialises enrolments of one name (two `collector enrol` at once).
            try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\(enrolment.name)))", logger: logger)
            if try await !Self.all(connection, "SELECT 1 FROM device WHERE name = \(enrolment.name) AND revoked_ns IS NULL", logger).isEmpty {
                throw CollectorError.invalidValue("A device called '\(enrolment.name)' is enrolled; revoke it first (`chronoception-collector revoke \(enrolment.name)`) or choose another name.")
            }
            // An older pending code for the name would enrol a second device under it: it is withdrawn.
            try await connection.query("UPDATE enrolment_code SET expires_ns = \(now) WHERE name = \(enrolment.name) AND used_ns IS NULL AND expires_ns > \(now)", logger: logger)
            _ = try await connection.query("""
                INSERT INTO enrolment_code (code_sha256, name, participant, created_ns, expires_ns)
                VALUES (\(enrolment.codeSHA256), \(enrolment.name), \(enrolment.participant), \(enrolment.createdUnixNanoseconds), \(enrolment.expiresUnixNanoseconds))
                """, logger: logger)
        }
    }

    public func redeemEnrolment(codeSHA256: String, request: EnrolmentRequest, keySHA256: String,
                                nowUnixNanoseconds now: Int64) async throws -> CollectorDevice {
        let deviceID = request.deviceID.lowercased()
        let logger = self.logger
        return try await transaction { connection in
            // Serialises redemptions by one device ID (two codes at once), so the check below holds.
            try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\("device:" + deviceID)))", logger: logger)
            let codes = try await Self.all(connection, "SELECT name, participant, expires_ns, used_ns FROM enrolment_code WHERE code_sha256 = \(codeSHA256) FOR UPDATE", logger)
            guard let code = codes.first else {
                throw CollectorError.codeRefused("This enrolment code is not known to the collector. Ask for a new one (`chronoception-collector enrol NAME` on the collector).")
            }
            let name = try code[0].decode(String.self), participant = try code[1].decode(String?.self)
            let expires = try code[2].decode(Int64.self), used = try code[3].decode(Int64?.self)
            guard used == nil else {
                throw CollectorError.codeRefused("This enrolment code was already used; each code enrols one device once. Ask for a new one.")
            }
            guard expires > now else {
                throw CollectorError.codeRefused("This enrolment code has expired. Ask for a new one (`chronoception-collector enrol \(name)`).")
            }
            // One row per physical device: an enrolled ID is never renamed or re-keyed by a code (a copy
            // of its data directory would take it over); a revoked one may come back.
            if let enrolled = try await Self.all(connection, "SELECT name FROM device WHERE id = \(deviceID) AND revoked_ns IS NULL", logger).first {
                throw CollectorError.deviceEnrolled(CollectorMessages.deviceEnrolled(id: deviceID, name: try enrolled[0].decode(String.self)))
            }
            if try await !Self.all(connection, "SELECT 1 FROM device WHERE name = \(name) AND revoked_ns IS NULL AND id <> \(deviceID)", logger).isEmpty {
                throw CollectorError.codeRefused("Another device was enrolled as '\(name)' since this code was made. Ask for a new code.")
            }
            try await connection.query("UPDATE enrolment_code SET used_ns = \(now), device_id = \(deviceID) WHERE code_sha256 = \(codeSHA256)", logger: logger)
            try await connection.query("""
                INSERT INTO device (id, name, participant, board, software_version, key_sha256, enrolled_ns)
                VALUES (\(deviceID), \(name), \(participant), \(request.board), \(request.softwareVersion), \(keySHA256), \(now))
                ON CONFLICT (id) DO UPDATE SET name = excluded.name, participant = excluded.participant, board = excluded.board,
                    software_version = excluded.software_version, key_sha256 = excluded.key_sha256,
                    enrolled_ns = excluded.enrolled_ns, revoked_ns = NULL
                """, logger: logger)
            let rows = try await Self.all(connection, PostgresQuery(unsafeSQL: "SELECT \(Self.deviceColumns) FROM device d WHERE d.id = $1", binds: Self.binds(deviceID)), logger)
            return try Self.device(rows[0])
        }
    }

    static func binds(_ values: String...) -> PostgresBindings {
        var bindings = PostgresBindings()
        for value in values { bindings.append(value) }
        return bindings
    }

    public func device(keySHA256: String) async throws -> CollectorDevice? {
        let found = try await rows(PostgresQuery(unsafeSQL: "SELECT \(Self.deviceColumns) FROM device d WHERE d.key_sha256 = $1", binds: Self.binds(keySHA256)))
        do { return try found.first.map(Self.device) } catch { throw Self.mapped(error, url: url) }
    }

    public func devices() async throws -> [CollectorDevice] {
        let found = try await rows(PostgresQuery(unsafeSQL: "SELECT \(Self.deviceColumns) FROM device d ORDER BY d.name, d.enrolled_ns"))
        do { return try found.map(Self.device) } catch { throw Self.mapped(error, url: url) }
    }

    /// The enrolled (not revoked) device called `name`, its row locked for the transaction.
    static func activeDevice(_ connection: PostgresConnection, named name: String, _ logger: Logger) async throws -> CollectorDevice {
        let rows = try await all(connection, PostgresQuery(unsafeSQL: "SELECT \(deviceColumns) FROM device d WHERE d.name = $1 AND d.revoked_ns IS NULL FOR UPDATE",
                                                           binds: binds(name)), logger)
        guard let row = rows.first else {
            var names: [String] = []
            for row in try await all(connection, "SELECT name FROM device WHERE revoked_ns IS NULL ORDER BY name LIMIT 10", logger) {
                names.append(try row[0].decode(String.self))
            }
            throw CollectorError.unknownDevice(CollectorMessages.unknownDevice(name, enrolled: names))
        }
        return try device(row)
    }

    public func revokeDevice(named name: String, nowUnixNanoseconds now: Int64) async throws -> CollectorDevice {
        let logger = self.logger
        return try await transaction { connection in
            var device = try await Self.activeDevice(connection, named: name, logger)
            try await connection.query("UPDATE device SET revoked_ns = \(now) WHERE id = \(device.id)", logger: logger)
            device.revokedUnixNanoseconds = now
            return device
        }
    }

    public func addReaderKey(_ key: ReaderKey, keySHA256: String) async throws {
        let logger = self.logger
        try await transaction { connection in
            _ = try await connection.query("INSERT INTO reader_key (id, name, key_sha256, created_ns) VALUES (\(key.id), \(key.name), \(keySHA256), \(key.createdUnixNanoseconds))", logger: logger)
        }
    }

    public func readerKey(keySHA256: String) async throws -> ReaderKey? {
        let found = try await rows("SELECT id, name, created_ns FROM reader_key WHERE key_sha256 = \(keySHA256)")
        do {
            return try found.first.map { ReaderKey(id: try $0[0].decode(String.self), name: try $0[1].decode(String.self), createdUnixNanoseconds: try $0[2].decode(Int64.self)) }
        } catch { throw Self.mapped(error, url: url) }
    }

    public func readerKeys() async throws -> [ReaderKey] {
        let found = try await rows("SELECT id, name, created_ns FROM reader_key ORDER BY name")
        do {
            return try found.map { ReaderKey(id: try $0[0].decode(String.self), name: try $0[1].decode(String.self), createdUnixNanoseconds: try $0[2].decode(Int64.self)) }
        } catch { throw Self.mapped(error, url: url) }
    }

    public func revokeReaderKey(_ idOrName: String) async throws -> ReaderKey {
        let logger = self.logger
        return try await transaction { connection in
            func keys(_ query: PostgresQuery) async throws -> [ReaderKey] {
                var found: [ReaderKey] = []
                for row in try await Self.all(connection, query, logger) {
                    found.append(ReaderKey(id: try row[0].decode(String.self), name: try row[1].decode(String.self), createdUnixNanoseconds: try row[2].decode(Int64.self)))
                }
                return found
            }
            // FOR UPDATE: two revocations of one key at once delete it once and report it once.
            let byID = try await keys("SELECT id, name, created_ns FROM reader_key WHERE id = \(idOrName) FOR UPDATE").first
            let byName = byID == nil ? try await keys("SELECT id, name, created_ns FROM reader_key WHERE name = \(idOrName) ORDER BY id FOR UPDATE") : []
            let all = byID == nil && byName.isEmpty ? try await keys("SELECT id, name, created_ns FROM reader_key ORDER BY name LIMIT 10") : []
            let key = try CollectorMessages.readerKeyToRevoke(idOrName, byID: byID, byName: byName, all: all)
            try await connection.query("DELETE FROM reader_key WHERE id = \(key.id)", logger: logger)
            return key
        }
    }

    public func collectorID() async throws -> String {
        let found = try await rows("SELECT value FROM collector_meta WHERE key = 'collector_id'")
        do { return try found.first?[0].decode(String.self) ?? "" } catch { throw Self.mapped(error, url: url) }
    }
}
