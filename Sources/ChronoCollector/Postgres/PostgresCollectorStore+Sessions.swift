import ChronoSync
import PostgresNIO

extension PostgresCollectorStore {
    /// One batch, one transaction, a fixed number of round trips whatever its size: the device row
    /// locked, all sessions in one `INSERT … SELECT FROM UNNEST(…) ON CONFLICT DO NOTHING RETURNING id`,
    /// then the new sessions' attempts and boundaries the same way, the preferences merged.
    public func ingest(_ checked: IngestPlan, deviceID rawDeviceID: String, nowUnixNanoseconds now: Int64) async throws -> SyncReceipt {
        let deviceID = rawDeviceID.lowercased()
        let logger = self.logger
        return try await transaction { connection in
            let devices = try await Self.all(connection, "SELECT name, revoked_ns, participant FROM device WHERE id = \(deviceID) FOR UPDATE", logger)
            guard let device = devices.first else {
                throw CollectorError.keyRefused("The collector has no device \(deviceID). Enrol it with a new code.")
            }
            if try device[1].decode(Int64?.self) != nil { throw CollectorError.keyRefused(CollectorMessages.revoked(try device[0].decode(String.self))) }
            let (plan, refused) = checked.admitting(try await Self.studyFacts(connection, participant: try device[2].decode(String?.self), logger))

            var inserted = Set<String>()
            if !plan.sessions.isEmpty {
                let rows = plan.sessions.map { SessionRowCodec.values($0, deviceID: deviceID, receivedUnixNanoseconds: now) }
                let query = Self.unnestInsert(table: "session", columns: CollectorSchema.sessionColumns, rows: rows,
                                              suffix: "ON CONFLICT DO NOTHING RETURNING id")
                for row in try await Self.all(connection, query, logger) { inserted.insert(try row[0].decode(String.self)) }
                if let update = Self.noteUpdate(plan.sessions.filter { !inserted.contains($0.wire.id) }, deviceID: deviceID) {
                    try await connection.query(update, logger: logger)
                }
                var attempts: [[CollectorValue]] = [], boundaries: [[CollectorValue]] = []
                var attached = Set<String>()
                // A session twice in one batch is inserted once; its attempts go with the first.
                for session in plan.sessions where inserted.contains(session.wire.id) && attached.insert(session.wire.id).inserted {
                    let id = CollectorValue.text(session.wire.id)
                    for attempt in session.wire.attempts {
                        attempts.append([id, .integer(Int64(attempt.index)), .integer(attempt.startMonotonicNanoseconds), .integer(attempt.tapMonotonicNanoseconds),
                                         attempt.presentedStartMonotonicNanoseconds.map(CollectorValue.integer) ?? .null,
                                         attempt.presentedEndMonotonicNanoseconds.map(CollectorValue.integer) ?? .null])
                    }
                    for (position, boundary) in session.wire.boundaries.enumerated() {
                        boundaries.append([id, .integer(Int64(position)), .integer(Int64(boundary.index)), .integer(boundary.dueMonotonicNanoseconds),
                                           boundary.firedMonotonicNanoseconds.map(CollectorValue.integer) ?? .null])
                    }
                }
                if !attempts.isEmpty {
                    try await connection.query(Self.unnestInsert(table: "attempt", columns: [
                        ("session_id", .text, false), ("attempt_index", .integer, false), ("start_mono_ns", .integer, false), ("tap_mono_ns", .integer, false),
                        ("presented_start_mono_ns", .integer, true), ("presented_end_mono_ns", .integer, true),
                    ], rows: attempts, suffix: ""), logger: logger)
                }
                if !boundaries.isEmpty {
                    try await connection.query(Self.unnestInsert(table: "boundary", columns: [
                        ("session_id", .text, false), ("position", .integer, false), ("boundary_index", .integer, false),
                        ("due_mono_ns", .integer, false), ("fired_mono_ns", .integer, true),
                    ], rows: boundaries, suffix: ""), logger: logger)
                }
            }
            let stored = try await Self.preferences(connection, deviceID: deviceID, logger)
            let merged = PreferenceMerge.merge(stored, plan.preferences)
            try await Self.savePreferences(connection, deviceID: deviceID, merged: merged, stored: stored, logger)
            try await connection.query("UPDATE device SET last_seen_ns = \(now), refused_sessions = refused_sessions + \(Int64(refused.count)) WHERE id = \(deviceID)",
                                       logger: logger)
            if let consent = plan.consent {
                let decision = consent.decision.rawValue, decided = consent.decidedUnixNanoseconds, name = consent.protocolName
                let version = Int64(consent.protocolVersion), digest = consent.textDigest
                try await connection.query("""
                    UPDATE device SET consent_decision = \(decision), consent_decided_ns = \(decided), consent_protocol = \(name),
                        consent_protocol_version = \(version), consent_text_sha256 = \(digest) WHERE id = \(deviceID)
                    """, logger: logger)
            }
            return SyncReceipt(accepted: inserted.count, duplicates: plan.sessions.count - inserted.count,
                               acknowledgedThrough: plan.batch.cursorThrough, preferences: merged, refused: refused.isEmpty ? nil : refused)
        }
    }

    /// What `IngestStudyTags` checks a batch's tags against: the device's participant and every
    /// protocol that participant was assigned (active or ended).
    static func studyFacts(_ connection: PostgresConnection, participant: String?, _ logger: Logger) async throws -> IngestStudyFacts {
        guard let participant else { return IngestStudyFacts(participant: nil, assigned: []) }
        var assigned = Set<StudyProtocolReference>()
        for row in try await all(connection, "SELECT protocol_name, protocol_version FROM study_assignment WHERE participant = \(participant)", logger) {
            assigned.insert(StudyProtocolReference(name: try row[0].decode(String.self), version: Int(try row[1].decode(Int64.self))))
        }
        return IngestStudyFacts(participant: participant, assigned: assigned)
    }

    /// Sessions this collector has, sent again by their own device: only the note may differ (the
    /// device re-sends a session whose note changed); every other column stays as first stored. One
    /// statement for the batch (the last copy of an id wins, as the device sends it once); nil when
    /// there are none.
    static func noteUpdate(_ duplicates: [IngestPlan.Session], deviceID: String) -> PostgresQuery? {
        var notes: [String: String?] = [:]
        for session in duplicates { notes[session.wire.id] = session.wire.note }
        guard !notes.isEmpty else { return nil }
        let ids = notes.keys.sorted()
        var bindings = PostgresBindings()
        bindings.append(ids)
        bindings.append(ids.map { notes[$0].flatMap { $0 } ?? "" })
        bindings.append(ids.map { notes[$0].flatMap { $0 } == nil })
        bindings.append(deviceID)
        return PostgresQuery(unsafeSQL: """
            UPDATE session AS s SET note = u.note
            FROM (SELECT id, CASE WHEN n THEN NULL ELSE v END AS note FROM UNNEST($1::text[], $2::text[], $3::bool[]) AS t(id, v, n)) AS u
            WHERE lower(s.id) = lower(u.id) AND s.device_id = $4 AND s.note IS DISTINCT FROM u.note
            """, binds: bindings)
    }

    /// `INSERT INTO table (columns) SELECT … FROM UNNEST($1::type[], …)`: one array per column, and for
    /// a nullable column a second array saying which entries are NULL (PostgresNIO's arrays carry no NULLs).
    static func unnestInsert(table: String, columns: [(name: String, type: CollectorSchema.ColumnType, nullable: Bool)],
                             rows: [[CollectorValue]], suffix: String) -> PostgresQuery {
        var bindings = PostgresBindings()
        var parameters: [String] = [], names: [String] = [], selected: [String] = []
        for (index, column) in columns.enumerated() {
            let values = rows.map { $0[index] }
            switch column.type {
            case .text:
                let texts: [String] = values.map { value in
                    if case .text(let text) = value { return text }
                    return ""
                }
                bindings.append(texts)
                parameters.append("$\(bindings.count)::text[]")
            case .integer:
                let integers: [Int64] = values.map { value in
                    if case .integer(let number) = value { return number }
                    return 0
                }
                bindings.append(integers)
                parameters.append("$\(bindings.count)::bigint[]")
            case .real:
                let reals: [Double] = values.map { value in
                    switch value {
                    case .real(let number): return number
                    case .integer(let number): return Double(number)
                    default: return 0
                    }
                }
                bindings.append(reals)
                parameters.append("$\(bindings.count)::float8[]")
            case .boolean:
                let flags: [Bool] = values.map { value in
                    if case .boolean(let flag) = value { return flag }
                    return false
                }
                bindings.append(flags)
                parameters.append("$\(bindings.count)::bool[]")
            }
            names.append("v\(index)")
            if column.nullable {
                let nulls: [Bool] = values.map { $0 == .null }
                bindings.append(nulls)
                parameters.append("$\(bindings.count)::bool[]")
                names.append("n\(index)")
                selected.append("CASE WHEN n\(index) THEN NULL ELSE v\(index) END")
            } else {
                selected.append("v\(index)")
            }
        }
        let sql = """
            INSERT INTO \(table) (\(columns.map(\.name).joined(separator: ", ")))
            SELECT \(selected.joined(separator: ", ")) FROM UNNEST(\(parameters.joined(separator: ", "))) AS t(\(names.joined(separator: ", ")))
            \(suffix)
            """
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    static func preferences(_ connection: PostgresConnection, deviceID: String, _ logger: Logger) async throws -> [StampedPreference] {
        try await all(connection, "SELECT key, value, clock, origin FROM preference WHERE device_id = \(deviceID) ORDER BY key", logger).map {
            StampedPreference(key: try $0[0].decode(String.self), value: try $0[1].decode(String.self), clock: try $0[2].decode(Int64.self),
                              origin: PreferenceOrigin(rawValue: try $0[3].decode(String.self)) ?? .device)
        }
    }

    static func savePreferences(_ connection: PostgresConnection, deviceID: String, merged: [StampedPreference], stored: [StampedPreference],
                                _ logger: Logger) async throws {
        let unchanged = Set(stored)
        for preference in merged where !unchanged.contains(preference) {
            try await connection.query("""
                INSERT INTO preference (device_id, key, value, clock, origin)
                VALUES (\(deviceID), \(preference.key), \(preference.value), \(preference.clock), \(preference.origin.rawValue))
                ON CONFLICT (device_id, key) DO UPDATE SET value = excluded.value, clock = excluded.clock, origin = excluded.origin
                """, logger: logger)
        }
    }

    public func preferences(deviceNamed name: String) async throws -> (device: CollectorDevice, preferences: [StampedPreference]) {
        let logger = self.logger
        return try await transaction { connection in
            let device = try await Self.activeDevice(connection, named: name, logger)
            return (device, try await Self.preferences(connection, deviceID: device.id, logger))
        }
    }

    public func setPreference(deviceNamed name: String, key: SettingKey, value: String) async throws -> StampedPreference {
        let logger = self.logger
        return try await transaction { connection in
            let device = try await Self.activeDevice(connection, named: name, logger)
            let stored = try await Self.preferences(connection, deviceID: device.id, logger)
            let stamped = try CollectorPreferences.stamp(key, value, over: stored)
            try await Self.savePreferences(connection, deviceID: device.id, merged: PreferenceMerge.merge(stored, [stamped]), stored: stored, logger)
            return stamped
        }
    }

    public func sessions(_ query: CollectorSessionQuery) async throws -> [CollectorSession] {
        let filter = CollectorSessionFilter(query, placeholder: { "$\($0)" })
        var bindings = PostgresBindings()
        for value in filter.arguments {
            switch value {
            case .text(let text): bindings.append(text)
            case .integer(let number): bindings.append(number)
            case .real(let number): bindings.append(number)
            case .boolean(let flag): bindings.append(flag)
            case .null: bindings.appendNull()
            }
        }
        let logger = self.logger
        let url = self.url
        // One snapshot for the three reads.
        return try await transaction { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            var attempts: [String: [SyncedSession.Attempt]] = [:]
            for row in try await Self.all(connection, PostgresQuery(unsafeSQL: filter.attemptsSQL, binds: bindings), logger) {
                attempts[try row[0].decode(String.self), default: []].append(SyncedSession.Attempt(
                    index: Int(try row[1].decode(Int64.self)), startMonotonicNanoseconds: try row[2].decode(Int64.self),
                    tapMonotonicNanoseconds: try row[3].decode(Int64.self),
                    presentedStartMonotonicNanoseconds: try row[4].decode(Int64?.self), presentedEndMonotonicNanoseconds: try row[5].decode(Int64?.self)))
            }
            var boundaries: [String: [SyncedSession.Boundary]] = [:]
            for row in try await Self.all(connection, PostgresQuery(unsafeSQL: filter.boundariesSQL, binds: bindings), logger) {
                boundaries[try row[0].decode(String.self), default: []].append(SyncedSession.Boundary(
                    index: Int(try row[1].decode(Int64.self)), dueMonotonicNanoseconds: try row[2].decode(Int64.self),
                    firedMonotonicNanoseconds: try row[3].decode(Int64?.self)))
            }
            let count = CollectorSchema.sessionColumns.count
            var sessions: [CollectorSession] = []
            for row in try await Self.all(connection, PostgresQuery(unsafeSQL: filter.sessionsSQL, binds: bindings), logger) {
                var values: [CollectorValue] = []
                for (index, column) in CollectorSchema.sessionColumns.enumerated() {
                    switch column.type {
                    case .text: values.append(try row[index].decode(String?.self).map(CollectorValue.text) ?? .null)
                    case .integer: values.append(try row[index].decode(Int64?.self).map(CollectorValue.integer) ?? .null)
                    case .real: values.append(try row[index].decode(Double?.self).map(CollectorValue.real) ?? .null)
                    case .boolean: values.append(try row[index].decode(Bool?.self).map(CollectorValue.boolean) ?? .null)
                    }
                }
                guard case .text(let id) = values[0], case .text(let deviceID) = values[1], case .integer(let received) = values[2] else {
                    throw CollectorError.database("A session row in \(url) has no id, device or receipt time.")
                }
                sessions.append(CollectorSession(
                    deviceID: deviceID, deviceName: try row[count].decode(String.self), participant: try row[count + 1].decode(String?.self),
                    session: try SessionRowCodec.session(values, attempts: attempts[id] ?? [], boundaries: boundaries[id] ?? []),
                    receivedUnixNanoseconds: received))
            }
            return Array(sessions.reversed())
        }
    }
}
