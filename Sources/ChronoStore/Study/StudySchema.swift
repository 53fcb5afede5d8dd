import GRDB

/// A study on the device (docs/STUDIES.md, "On the device"): one migration of its own, registered after
/// the others.
///
/// - `study_assignment`: the protocol a collector assigned to this device's participant, as the sync
///   reply carried it (the document's text, its name and version, the participant and their index
///   among the protocol's participants, the assignment's start and seed) — at most one, kept until a reply names another, so a device that reaches no
///   collector keeps running the protocol from what it has. `received_unix_ns` is when this device
///   first had it (a repeated reply does not move it).
/// - `session_study`: a session's study tag (`StudyTag`), one row per session that ran as part of a
///   study; a session outside any study has none. A table of its own rather than columns on
///   `session`: the tag is all there or all absent, and a later rebuild of `session` (a mode added to
///   its CHECK) cannot drop it. Deleted with its session.
enum StudySchema {
    static let migrationIdentifier = "study-v1"

    static func migrate(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE study_assignment (
                singleton INTEGER PRIMARY KEY NOT NULL CHECK (singleton = 1),
                protocol_name TEXT NOT NULL CHECK (protocol_name <> ''),
                protocol_version INTEGER NOT NULL,
                participant TEXT NOT NULL CHECK (participant <> ''),
                participant_index INTEGER NOT NULL CHECK (participant_index >= 0),
                protocol_text TEXT NOT NULL,
                start_unix_ns INTEGER NOT NULL,
                seed INTEGER NOT NULL,
                received_unix_ns INTEGER NOT NULL
            )
            """)
        try db.execute(sql: """
            CREATE TABLE session_study (
                session_id TEXT PRIMARY KEY NOT NULL REFERENCES session (id) ON DELETE CASCADE,
                protocol_name TEXT NOT NULL,
                protocol_version INTEGER NOT NULL,
                participant TEXT NOT NULL,
                block_index INTEGER NOT NULL CHECK (block_index >= 0),
                block_name TEXT NOT NULL,
                plan_position INTEGER NOT NULL CHECK (plan_position >= 0),
                condition_label TEXT NOT NULL,
                feedback_shown INTEGER NOT NULL CHECK (feedback_shown IN (0, 1))
            ) WITHOUT ROWID
            """)
        try db.execute(sql: "CREATE INDEX session_study_by_plan ON session_study (protocol_name, protocol_version, participant, plan_position)")
    }
}
