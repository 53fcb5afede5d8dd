import GRDB

/// The versioned schema. Migrations are append-only: a released migration is never edited; a change
/// is a new migration (`v2`, …) registered after the others, so any older database upgrades in order.
///
/// Units are in the column names. Monotonic instants (`*_mono_ns`) are raw `CLOCK_MONOTONIC`
/// nanoseconds exactly as the runtime saw them (never clamped); wall-clock times (`*_unix_ns`) come from
/// the session's one wall/monotonic anchor.
enum StoreSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1", migrate: v1)
        migrator.registerMigration(APIKeySchema.migrationIdentifier, migrate: APIKeySchema.migrate)
        migrator.registerMigration(ProgressTallySchema.migrationIdentifier, migrate: ProgressTallySchema.migrate)
        migrator.registerMigration(SyncSchema.migrationIdentifier, migrate: SyncSchema.migrate)
        migrator.registerMigration(SessionTimingSchema.migrationIdentifier, migrate: SessionTimingSchema.migrate)
        migrator.registerMigration(SyncMachineSchema.migrationIdentifier, migrate: SyncMachineSchema.migrate)
        migrator.registerMigration(BoundaryFiringRepair.migrationIdentifier, migrate: BoundaryFiringRepair.migrate)
        migrator.registerMigration(SessionNoteSchema.migrationIdentifier, migrate: SessionNoteSchema.migrate)
        migrator.registerMigration(APIKeyUseSchema.migrationIdentifier, migrate: APIKeyUseSchema.migrate)
        migrator.registerMigration(StudySchema.migrationIdentifier, migrate: StudySchema.migrate)
        migrator.registerMigration(ReproductionSchema.migrationIdentifier, migrate: ReproductionSchema.migrate)
        migrator.registerMigration(StudyConsentSchema.migrationIdentifier, migrate: StudyConsentSchema.migrate)
        migrator.registerMigration(SyncUnfinishedSchema.migrationIdentifier, migrate: SyncUnfinishedSchema.migrate)
        return migrator
    }

    static func v1(_ db: Database) throws {
        try db.execute(sql: "PRAGMA application_id = \(DatabaseFileCheck.applicationID)")
        try db.execute(sql: """
            CREATE TABLE session (
                id TEXT PRIMARY KEY NOT NULL,
                mode TEXT NOT NULL CHECK (mode IN ('challenge', 'fear', 'passive')),
                target_interval_ms INTEGER NOT NULL CHECK (target_interval_ms > 0),
                planned_count INTEGER NOT NULL,
                done_count INTEGER NOT NULL DEFAULT 0,
                status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'aborted', 'interrupted')),
                reason TEXT,
                fear_threshold_percent REAL NOT NULL,
                sound_audible_at_start INTEGER NOT NULL,
                fear_sound_effective INTEGER,
                interval_pattern TEXT NOT NULL,
                auto_start_next_attempt INTEGER NOT NULL,
                feedback_ms INTEGER NOT NULL,
                abort_window_ms INTEGER NOT NULL,
                debounce_ms INTEGER NOT NULL,
                long_press_ms INTEGER NOT NULL,
                started_mono_ns INTEGER NOT NULL,
                ended_mono_ns INTEGER,
                anchor_unix_ns INTEGER NOT NULL,
                anchor_mono_ns INTEGER NOT NULL,
                utc_offset_seconds INTEGER NOT NULL,
                started_unix_ns INTEGER NOT NULL,
                wall_clock_synchronised INTEGER NOT NULL,
                board TEXT NOT NULL,
                boot_id TEXT NOT NULL,
                writer_pid INTEGER NOT NULL,
                writer_start_ticks INTEGER NOT NULL,
                attempt_count INTEGER NOT NULL DEFAULT 0,
                mean_abs_error_seconds REAL,
                mean_signed_error_seconds REAL,
                std_dev_error_seconds REAL,
                mean_abs_percent_error REAL,
                time_acuity_score INTEGER,
                total_duration_seconds INTEGER
            )
            """)
        try db.execute(sql: "CREATE INDEX session_by_start ON session (started_unix_ns)")
        try db.execute(sql: "CREATE INDEX session_by_interval ON session (target_interval_ms, status, started_unix_ns)")
        try db.execute(sql: "CREATE INDEX session_by_status ON session (status, mode)")
        try db.execute(sql: """
            CREATE TABLE attempt (
                session_id TEXT NOT NULL REFERENCES session (id) ON DELETE CASCADE,
                attempt_index INTEGER NOT NULL,
                start_mono_ns INTEGER NOT NULL,
                tap_mono_ns INTEGER NOT NULL,
                PRIMARY KEY (session_id, attempt_index)
            ) WITHOUT ROWID
            """)
        try db.execute(sql: """
            CREATE TABLE passive_boundary (
                session_id TEXT NOT NULL REFERENCES session (id) ON DELETE CASCADE,
                boundary_index INTEGER NOT NULL,
                due_mono_ns INTEGER NOT NULL,
                fired_mono_ns INTEGER,
                PRIMARY KEY (session_id, boundary_index)
            ) WITHOUT ROWID
            """)
        try db.execute(sql: """
            CREATE TABLE preset_use (
                id INTEGER PRIMARY KEY,
                target_interval_ms INTEGER NOT NULL,
                used_unix_seconds INTEGER NOT NULL,
                session_id TEXT UNIQUE REFERENCES session (id) ON DELETE CASCADE
            )
            """)
        try db.execute(sql: "CREATE INDEX preset_use_by_interval ON preset_use (target_interval_ms, used_unix_seconds)")
        try db.execute(sql: "CREATE INDEX preset_use_by_time ON preset_use (used_unix_seconds, target_interval_ms)")
        try db.execute(sql: """
            CREATE TABLE haptic_assignment (
                target_interval_ms INTEGER PRIMARY KEY NOT NULL,
                pattern TEXT NOT NULL UNIQUE,
                assigned_unix_seconds INTEGER NOT NULL
            )
            """)
        try db.execute(sql: """
            CREATE TABLE setting (
                key TEXT PRIMARY KEY NOT NULL,
                value TEXT NOT NULL,
                updated_unix_seconds INTEGER NOT NULL
            )
            """)
        try db.execute(sql: """
            CREATE TABLE health_ledger (
                session_id TEXT PRIMARY KEY NOT NULL REFERENCES session (id) ON DELETE CASCADE,
                state TEXT NOT NULL CHECK (state IN ('owed', 'written', 'skipped')),
                reason_code TEXT,
                reason TEXT,
                updated_unix_ns INTEGER NOT NULL,
                written_unix_ns INTEGER
            )
            """)
        try db.execute(sql: "CREATE INDEX health_ledger_owed ON health_ledger (state, reason_code) WHERE state = 'owed'")
    }
}
