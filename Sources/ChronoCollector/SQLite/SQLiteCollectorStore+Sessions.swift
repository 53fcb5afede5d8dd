import ChronoSync
import GRDB

extension SQLiteCollectorStore {
    public func ingest(_ checked: IngestPlan, deviceID rawDeviceID: String, nowUnixNanoseconds now: Int64) async throws -> SyncReceipt {
        let deviceID = rawDeviceID.lowercased()
        return try await write { db in
            guard let device = try Row.fetchOne(db, sql: "SELECT name, revoked_ns, participant FROM device WHERE id = ?", arguments: [deviceID]) else {
                throw CollectorError.keyRefused("The collector has no device \(deviceID). Enrol it with a new code.")
            }
            if (device[1] as Int64?) != nil { throw CollectorError.keyRefused(CollectorMessages.revoked(device[0])) }
            let (plan, refused) = checked.admitting(try Self.studyFacts(db, participant: device[2]))
            let placeholders = Array(repeating: "?", count: CollectorSchema.sessionColumns.count).joined(separator: ", ")
            let insertSession = try db.cachedStatement(sql: "INSERT INTO session (\(SessionRowCodec.columnList())) VALUES (\(placeholders)) ON CONFLICT DO NOTHING")
            let insertAttempt = try db.cachedStatement(sql: "INSERT INTO attempt (session_id, attempt_index, start_mono_ns, tap_mono_ns, presented_start_mono_ns, presented_end_mono_ns) VALUES (?, ?, ?, ?, ?, ?)")
            let insertBoundary = try db.cachedStatement(sql: "INSERT INTO boundary (session_id, position, boundary_index, due_mono_ns, fired_mono_ns) VALUES (?, ?, ?, ?, ?)")
            // A session this collector has, sent again by its own device: only the note may differ
            // (the device re-sends a session whose note changed); every other column stays as first stored.
            let updateNote = try db.cachedStatement(sql: "UPDATE session SET note = ? WHERE lower(id) = lower(?) AND device_id = ? AND note IS NOT ?")
            var accepted = 0, duplicates = 0
            for session in plan.sessions {
                let values = SessionRowCodec.values(session, deviceID: deviceID, receivedUnixNanoseconds: now)
                try insertSession.execute(arguments: StatementArguments(values.map(DatabaseValue.init)))
                guard db.changesCount == 1 else {
                    duplicates += 1
                    try updateNote.execute(arguments: [session.wire.note, session.wire.id, deviceID, session.wire.note])
                    continue
                }
                accepted += 1
                let id = session.wire.id
                for attempt in session.wire.attempts {
                    try insertAttempt.execute(arguments: [id, attempt.index, attempt.startMonotonicNanoseconds, attempt.tapMonotonicNanoseconds,
                                                          attempt.presentedStartMonotonicNanoseconds, attempt.presentedEndMonotonicNanoseconds])
                }
                for (position, boundary) in session.wire.boundaries.enumerated() {
                    try insertBoundary.execute(arguments: [id, position, boundary.index, boundary.dueMonotonicNanoseconds, boundary.firedMonotonicNanoseconds])
                }
            }
            let stored = try Self.preferences(db, deviceID: deviceID)
            let merged = PreferenceMerge.merge(stored, plan.preferences)
            try Self.savePreferences(db, deviceID: deviceID, merged: merged, stored: stored)
            try db.execute(sql: "UPDATE device SET last_seen_ns = ?, refused_sessions = refused_sessions + ? WHERE id = ?",
                           arguments: [now, refused.count, deviceID])
            if let consent = plan.consent {
                try db.execute(sql: """
                    UPDATE device SET consent_decision = ?, consent_decided_ns = ?, consent_protocol = ?, consent_protocol_version = ?,
                        consent_text_sha256 = ? WHERE id = ?
                    """, arguments: [consent.decision.rawValue, consent.decidedUnixNanoseconds, consent.protocolName, consent.protocolVersion,
                                      consent.textDigest, deviceID])
            }
            return SyncReceipt(accepted: accepted, duplicates: duplicates, acknowledgedThrough: plan.batch.cursorThrough, preferences: merged,
                               refused: refused.isEmpty ? nil : refused)
        }
    }

    /// What `IngestStudyTags` checks a batch's tags against: the device's participant and every
    /// protocol that participant was assigned (active or ended).
    static func studyFacts(_ db: Database, participant: String?) throws -> IngestStudyFacts {
        guard let participant else { return IngestStudyFacts(participant: nil, assigned: []) }
        let rows = try Row.fetchAll(db, sql: "SELECT protocol_name, protocol_version FROM study_assignment WHERE participant = ?", arguments: [participant])
        return IngestStudyFacts(participant: participant, assigned: Set(rows.map { StudyProtocolReference(name: $0[0], version: $0[1]) }))
    }

    static func preferences(_ db: Database, deviceID: String) throws -> [StampedPreference] {
        try Row.fetchAll(db, sql: "SELECT key, value, clock, origin FROM preference WHERE device_id = ? ORDER BY key", arguments: [deviceID]).map {
            StampedPreference(key: $0[0], value: $0[1], clock: $0[2], origin: PreferenceOrigin(rawValue: $0[3]) ?? .device)
        }
    }

    static func savePreferences(_ db: Database, deviceID: String, merged: [StampedPreference], stored: [StampedPreference]) throws {
        let unchanged = Set(stored)
        for preference in merged where !unchanged.contains(preference) {
            try db.execute(sql: """
                INSERT INTO preference (device_id, key, value, clock, origin) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (device_id, key) DO UPDATE SET value = excluded.value, clock = excluded.clock, origin = excluded.origin
                """, arguments: [deviceID, preference.key, preference.value, preference.clock, preference.origin.rawValue])
        }
    }

    public func preferences(deviceNamed name: String) async throws -> (device: CollectorDevice, preferences: [StampedPreference]) {
        try await read { db in
            let device = try Self.activeDevice(db, named: name)
            return (device, try Self.preferences(db, deviceID: device.id))
        }
    }

    public func setPreference(deviceNamed name: String, key: SettingKey, value: String) async throws -> StampedPreference {
        try await write { db in
            let device = try Self.activeDevice(db, named: name)
            let stored = try Self.preferences(db, deviceID: device.id)
            let stamped = try CollectorPreferences.stamp(key, value, over: stored)
            try Self.savePreferences(db, deviceID: device.id, merged: PreferenceMerge.merge(stored, [stamped]), stored: stored)
            return stamped
        }
    }

    public func sessions(_ query: CollectorSessionQuery) async throws -> [CollectorSession] {
        try await read { db in
            let filter = CollectorSessionFilter(query, placeholder: { _ in "?" })
            let arguments = StatementArguments(filter.arguments.map(DatabaseValue.init))
            let rows = try Row.fetchAll(db, sql: filter.sessionsSQL, arguments: arguments)
            var attempts: [String: [SyncedSession.Attempt]] = [:]
            for row in try Row.fetchAll(db, sql: filter.attemptsSQL, arguments: arguments) {
                attempts[row[0], default: []].append(SyncedSession.Attempt(index: row[1], startMonotonicNanoseconds: row[2], tapMonotonicNanoseconds: row[3],
                                                                           presentedStartMonotonicNanoseconds: row[4], presentedEndMonotonicNanoseconds: row[5]))
            }
            var boundaries: [String: [SyncedSession.Boundary]] = [:]
            for row in try Row.fetchAll(db, sql: filter.boundariesSQL, arguments: arguments) {
                boundaries[row[0], default: []].append(SyncedSession.Boundary(index: row[1], dueMonotonicNanoseconds: row[2], firedMonotonicNanoseconds: row[3]))
            }
            let count = CollectorSchema.sessionColumns.count
            return try Array(rows.reversed()).map { row in
                let values = (0..<count).map { CollectorValue(row[$0] as DatabaseValue) }
                let id: String = row[0]
                let session = try SessionRowCodec.session(values, attempts: attempts[id] ?? [], boundaries: boundaries[id] ?? [])
                return CollectorSession(deviceID: row[1], deviceName: row[count], participant: row[count + 1], session: session,
                                        receivedUnixNanoseconds: row[2])
            }
        }
    }
}
