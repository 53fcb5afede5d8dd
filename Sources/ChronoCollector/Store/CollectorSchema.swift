/// The collector's schema, written once for both stores so they keep one meaning (docs/SYNC.md, "The
/// collector"). Each store records the version it holds in `schema_version` (one row) and applies the
/// migrations above it in one transaction when it opens; a database of a newer version, or one that
/// is not a collector's, is refused and left untouched.
///
/// Types: SQLite takes the SQLite spelling of each column (INTEGER, REAL, TEXT); PostgreSQL gets
/// BIGINT, DOUBLE PRECISION, TEXT and BOOLEAN. Instants are Unix nanoseconds (`_ns`), monotonic
/// instants of one device boot are `_mono_ns`, exactly as the device sent them.
public enum CollectorSchema {
    /// The newest schema version this build knows.
    public static var version: Int { migrations.count }

    /// A column's value type, shared by both stores' row codecs.
    public enum ColumnType: Sendable {
        case text, integer, real, boolean
    }

    /// One migration: the same change in each dialect.
    public struct Migration: Sendable {
        public var sqlite: [String]
        public var postgres: [String]
    }

    /// The session table's columns in the order the row codec writes and reads them: version 1's
    /// (the wire's fields, then the values derived at ingest), then the wire's fields added since.
    public static let sessionColumns = version1SessionColumns + [
        // Version 2: the timing flag (`SyncedSession.timingLateNanoseconds`); NULL from older devices.
        (name: "timing_late_ns", type: ColumnType.integer, nullable: true),
        // Version 3: the person's note (`SyncedSession.note`); NULL when none and from older devices.
        // The one column a re-sent session updates (by its own device), every other one is kept.
        (name: "note", type: ColumnType.text, nullable: true),
    ] + studySessionColumns + [
        // Version 8: why the session ended as it did (`SyncedSession.reason`); NULL when none and from
        // older devices. Aborted and interrupted sessions arrive from version 8's devices on.
        (name: "reason", type: ColumnType.text, nullable: true),
    ]

    /// Version 4: a session's study tag (`SyncedSession.study`, `StudyTag`); all NULL for a session run
    /// outside a study and from older devices, all set together otherwise.
    static let studySessionColumns: [(name: String, type: ColumnType, nullable: Bool)] = [
        ("study_protocol", .text, true), ("study_protocol_version", .integer, true), ("study_participant", .text, true),
        ("study_block_index", .integer, true), ("study_block", .text, true), ("study_plan_position", .integer, true),
        ("study_condition", .text, true), ("study_feedback_shown", .boolean, true),
    ]

    /// Version 4: the study tag's columns, loaded protocols (a (name, version) keeps its first document
    /// for ever) and assignments (one active per participant; an unassigned one is kept, so assigning the
    /// same protocol again restores its index, seed and start).
    static func version4(postgres: Bool) -> [String] {
        let integer = postgres ? "BIGINT" : "INTEGER"
        return studySessionColumns.map { column in
            let type: String
            switch column.type {
            case .text: type = "TEXT"
            case .integer: type = integer
            case .real: type = postgres ? "DOUBLE PRECISION" : "REAL"
            case .boolean: type = postgres ? "BOOLEAN" : "INTEGER"
            }
            return "ALTER TABLE session ADD COLUMN \(column.name) \(type)"
        } + [
            "CREATE INDEX session_study ON session (study_participant, study_protocol, study_protocol_version)",
            """
            CREATE TABLE study_protocol (
                name TEXT NOT NULL, version \(integer) NOT NULL, document TEXT NOT NULL, fingerprint TEXT NOT NULL,
                loaded_ns \(integer) NOT NULL, PRIMARY KEY (name, version))
            """,
            """
            CREATE TABLE study_assignment (
                participant TEXT NOT NULL, protocol_name TEXT NOT NULL, protocol_version \(integer) NOT NULL,
                participant_index \(integer) NOT NULL, seed \(integer) NOT NULL, start_ns \(integer) NOT NULL,
                assigned_ns \(integer) NOT NULL, unassigned_ns \(integer),
                PRIMARY KEY (participant, protocol_name, protocol_version),
                UNIQUE (protocol_name, protocol_version, participant_index),
                FOREIGN KEY (protocol_name, protocol_version) REFERENCES study_protocol (name, version))
            """,
            "CREATE UNIQUE INDEX study_assignment_active ON study_assignment (participant) WHERE unassigned_ns IS NULL",
        ]
    }

    /// The session table as version 1 created it. `id`, `device_id` and `received_ns` come first.
    static let version1SessionColumns: [(name: String, type: ColumnType, nullable: Bool)] = [
        ("id", .text, false), ("device_id", .text, false), ("received_ns", .integer, false),
        ("mode", .text, false), ("status", .text, false), ("target_interval_ms", .integer, false),
        ("planned_count", .integer, false), ("fear_threshold", .real, false), ("interval_pattern", .text, false),
        ("auto_start_next_attempt", .boolean, false), ("feedback_ms", .integer, false), ("abort_window_ms", .integer, false),
        ("debounce_ms", .integer, false), ("long_press_ms", .integer, false),
        ("started_mono_ns", .integer, false), ("ended_mono_ns", .integer, false),
        ("anchor_unix_ns", .integer, false), ("anchor_mono_ns", .integer, false), ("utc_offset_seconds", .integer, false),
        ("wall_clock_synchronised", .boolean, false), ("board", .text, false), ("sound_audible_at_start", .boolean, false),
        ("fear_sound_effective", .boolean, false), ("health_decision", .text, false), ("health_skip_reason", .text, true),
        // Derived by the core at ingest, for queries; never read back into a session.
        ("started_unix_ns", .integer, false), ("ended_unix_ns", .integer, false), ("attempt_count", .integer, false),
        ("time_acuity_score", .integer, true), ("mean_abs_error_seconds", .real, true),
    ]

    static func columnDefinitions(postgres: Bool) -> String {
        version1SessionColumns.map { column in
            let type: String
            switch column.type {
            case .text: type = "TEXT"
            case .integer: type = postgres ? "BIGINT" : "INTEGER"
            case .real: type = postgres ? "DOUBLE PRECISION" : "REAL"
            case .boolean: type = postgres ? "BOOLEAN" : "INTEGER"
            }
            var definition = "\(column.name) \(type)\(column.nullable ? "" : " NOT NULL")"
            if column.name == "id" { definition += " PRIMARY KEY" }
            if column.name == "device_id" { definition += " REFERENCES device(id)" }
            return definition
        }.joined(separator: ",\n    ")
    }

    static func version1(postgres: Bool) -> [String] {
        let integer = postgres ? "BIGINT" : "INTEGER"
        return [
            "CREATE TABLE collector_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            """
            CREATE TABLE device (
                id TEXT PRIMARY KEY, name TEXT NOT NULL, participant TEXT, board TEXT NOT NULL,
                software_version TEXT NOT NULL, key_sha256 TEXT NOT NULL UNIQUE, enrolled_ns \(integer) NOT NULL,
                revoked_ns \(integer), last_seen_ns \(integer))
            """,
            // A name belongs to one enrolled device at a time; a revoked device keeps its name in history.
            "CREATE UNIQUE INDEX device_active_name ON device (name) WHERE revoked_ns IS NULL",
            "CREATE INDEX device_participant ON device (participant)",
            """
            CREATE TABLE enrolment_code (
                code_sha256 TEXT PRIMARY KEY, name TEXT NOT NULL, participant TEXT, created_ns \(integer) NOT NULL,
                expires_ns \(integer) NOT NULL, used_ns \(integer), device_id TEXT)
            """,
            "CREATE TABLE session (\n    \(columnDefinitions(postgres: postgres)))",
            // The idempotency key: a session UUID whatever its letters' case (the id is kept as sent).
            "CREATE UNIQUE INDEX session_id_any_case ON session (lower(id))",
            "CREATE INDEX session_device_started ON session (device_id, started_unix_ns)",
            "CREATE INDEX session_started ON session (started_unix_ns)",
            """
            CREATE TABLE attempt (
                session_id TEXT NOT NULL REFERENCES session(id), attempt_index \(integer) NOT NULL,
                start_mono_ns \(integer) NOT NULL, tap_mono_ns \(integer) NOT NULL, PRIMARY KEY (session_id, attempt_index))
            """,
            """
            CREATE TABLE boundary (
                session_id TEXT NOT NULL REFERENCES session(id), position \(integer) NOT NULL, boundary_index \(integer) NOT NULL,
                due_mono_ns \(integer) NOT NULL, fired_mono_ns \(integer), PRIMARY KEY (session_id, position))
            """,
            """
            CREATE TABLE preference (
                device_id TEXT NOT NULL REFERENCES device(id), key TEXT NOT NULL, value TEXT NOT NULL,
                clock \(integer) NOT NULL, origin TEXT NOT NULL, PRIMARY KEY (device_id, key))
            """,
            """
            CREATE TABLE reader_key (
                id TEXT PRIMARY KEY, name TEXT NOT NULL, key_sha256 TEXT NOT NULL UNIQUE, created_ns \(integer) NOT NULL)
            """,
        ]
    }

    /// Every migration, oldest first; version N is the result of applying the first N.
    public static let migrations: [Migration] = [
        Migration(sqlite: version1(postgres: false), postgres: version1(postgres: true)),
        Migration(sqlite: ["ALTER TABLE session ADD COLUMN timing_late_ns INTEGER"],
                  postgres: ["ALTER TABLE session ADD COLUMN timing_late_ns BIGINT"]),
        Migration(sqlite: ["ALTER TABLE session ADD COLUMN note TEXT"],
                  postgres: ["ALTER TABLE session ADD COLUMN note TEXT"]),
        Migration(sqlite: version4(postgres: false), postgres: version4(postgres: true)),
        // Version 5: Reproduction's presented interval on each attempt (`SyncedSession.Attempt`'s
        // presented_start_mono_ns and presented_end_mono_ns); NULL in other modes and from older devices.
        Migration(sqlite: ["ALTER TABLE attempt ADD COLUMN presented_start_mono_ns INTEGER",
                           "ALTER TABLE attempt ADD COLUMN presented_end_mono_ns INTEGER"],
                  postgres: ["ALTER TABLE attempt ADD COLUMN presented_start_mono_ns BIGINT",
                             "ALTER TABLE attempt ADD COLUMN presented_end_mono_ns BIGINT"]),
        // Version 6: sessions refused at ingest for their study tag (`IngestStudyTags`), per device.
        Migration(sqlite: ["ALTER TABLE device ADD COLUMN refused_sessions INTEGER NOT NULL DEFAULT 0"],
                  postgres: ["ALTER TABLE device ADD COLUMN refused_sessions BIGINT NOT NULL DEFAULT 0"]),
        // Version 7: the device's newest consent decision on its study (`SyncBatch.consent`,
        // `StudyConsent`): all NULL before one arrives and from older devices, all set together otherwise.
        Migration(sqlite: consentColumns(integer: "INTEGER"), postgres: consentColumns(integer: "BIGINT")),
        // Version 8: a session's reason (`SyncedSession.reason`).
        Migration(sqlite: ["ALTER TABLE session ADD COLUMN reason TEXT"],
                  postgres: ["ALTER TABLE session ADD COLUMN reason TEXT"]),
    ]

    /// Version 7's columns on `device`: the decision, when it was taken, and the protocol and consent
    /// text (SHA-256) it answered.
    static func consentColumns(integer: String) -> [String] {
        ["consent_decision TEXT", "consent_decided_ns \(integer)", "consent_protocol TEXT", "consent_protocol_version \(integer)",
         "consent_text_sha256 TEXT"].map { "ALTER TABLE device ADD COLUMN " + $0 }
    }

    /// The tables a collector's database holds; a database with other tables and no `schema_version` is
    /// someone else's.
    static let tables = ["collector_meta", "device", "enrolment_code", "session", "attempt", "boundary", "preference", "reader_key",
                         "study_protocol", "study_assignment"]
}
