import GRDB

/// Running totals that `progress` (the CLI, the API's `/progress`) would otherwise count over the whole
/// history on every read: sessions per (interval, status, mode), and preset uses per interval with the
/// latest use. With 100,000 sessions those counts were most of a request's time; kept here they are a
/// few rows.
///
/// SQLite triggers keep the totals, in the same transaction as the change they count, so they are
/// exact whichever connection or process writes (the daemon, `import`, `simulate`, `delete-all`), and
/// no reader can see totals that disagree with the rows. The migration fills them from what is stored.
enum ProgressTallySchema {
    static let migrationIdentifier = "progress-tally-v1"

    static func migrate(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE session_tally (
                target_interval_ms INTEGER NOT NULL,
                status TEXT NOT NULL,
                mode TEXT NOT NULL,
                sessions INTEGER NOT NULL,
                PRIMARY KEY (target_interval_ms, status, mode)
            ) WITHOUT ROWID;
            INSERT INTO session_tally (target_interval_ms, status, mode, sessions)
                SELECT target_interval_ms, status, mode, COUNT(*) FROM session GROUP BY target_interval_ms, status, mode;

            CREATE TRIGGER session_tally_insert AFTER INSERT ON session BEGIN
                INSERT OR IGNORE INTO session_tally VALUES (NEW.target_interval_ms, NEW.status, NEW.mode, 0);
                UPDATE session_tally SET sessions = sessions + 1
                    WHERE target_interval_ms = NEW.target_interval_ms AND status = NEW.status AND mode = NEW.mode;
            END;
            CREATE TRIGGER session_tally_delete AFTER DELETE ON session BEGIN
                UPDATE session_tally SET sessions = sessions - 1
                    WHERE target_interval_ms = OLD.target_interval_ms AND status = OLD.status AND mode = OLD.mode;
                DELETE FROM session_tally
                    WHERE target_interval_ms = OLD.target_interval_ms AND status = OLD.status AND mode = OLD.mode AND sessions <= 0;
            END;
            CREATE TRIGGER session_tally_update AFTER UPDATE OF target_interval_ms, status, mode ON session
                WHEN OLD.target_interval_ms IS NOT NEW.target_interval_ms OR OLD.status IS NOT NEW.status OR OLD.mode IS NOT NEW.mode
            BEGIN
                UPDATE session_tally SET sessions = sessions - 1
                    WHERE target_interval_ms = OLD.target_interval_ms AND status = OLD.status AND mode = OLD.mode;
                DELETE FROM session_tally
                    WHERE target_interval_ms = OLD.target_interval_ms AND status = OLD.status AND mode = OLD.mode AND sessions <= 0;
                INSERT OR IGNORE INTO session_tally VALUES (NEW.target_interval_ms, NEW.status, NEW.mode, 0);
                UPDATE session_tally SET sessions = sessions + 1
                    WHERE target_interval_ms = NEW.target_interval_ms AND status = NEW.status AND mode = NEW.mode;
            END;

            CREATE TABLE preset_use_tally (
                target_interval_ms INTEGER PRIMARY KEY NOT NULL,
                uses INTEGER NOT NULL,
                last_used_unix_seconds INTEGER NOT NULL
            ) WITHOUT ROWID;
            INSERT INTO preset_use_tally (target_interval_ms, uses, last_used_unix_seconds)
                SELECT target_interval_ms, COUNT(*), MAX(used_unix_seconds) FROM preset_use GROUP BY target_interval_ms;

            CREATE TRIGGER preset_use_tally_insert AFTER INSERT ON preset_use BEGIN
                INSERT OR IGNORE INTO preset_use_tally VALUES (NEW.target_interval_ms, 0, NEW.used_unix_seconds);
                UPDATE preset_use_tally SET uses = uses + 1, last_used_unix_seconds = MAX(last_used_unix_seconds, NEW.used_unix_seconds)
                    WHERE target_interval_ms = NEW.target_interval_ms;
            END;
            -- The latest use after a delete comes from the (interval, time) index: one seek, not a scan.
            CREATE TRIGGER preset_use_tally_delete AFTER DELETE ON preset_use BEGIN
                UPDATE preset_use_tally SET uses = uses - 1,
                    last_used_unix_seconds = COALESCE((SELECT MAX(used_unix_seconds) FROM preset_use WHERE target_interval_ms = OLD.target_interval_ms), 0)
                    WHERE target_interval_ms = OLD.target_interval_ms;
                DELETE FROM preset_use_tally WHERE target_interval_ms = OLD.target_interval_ms AND uses <= 0;
            END;
            CREATE TRIGGER preset_use_tally_update AFTER UPDATE OF target_interval_ms, used_unix_seconds ON preset_use BEGIN
                UPDATE preset_use_tally SET uses = uses - 1,
                    last_used_unix_seconds = COALESCE((SELECT MAX(used_unix_seconds) FROM preset_use WHERE target_interval_ms = OLD.target_interval_ms), 0)
                    WHERE target_interval_ms = OLD.target_interval_ms;
                DELETE FROM preset_use_tally WHERE target_interval_ms = OLD.target_interval_ms AND uses <= 0;
                INSERT OR IGNORE INTO preset_use_tally VALUES (NEW.target_interval_ms, 0, NEW.used_unix_seconds);
                UPDATE preset_use_tally SET uses = uses + 1,
                    last_used_unix_seconds = (SELECT MAX(used_unix_seconds) FROM preset_use WHERE target_interval_ms = NEW.target_interval_ms)
                    WHERE target_interval_ms = NEW.target_interval_ms;
            END;
            """)
    }
}
