import GRDB

/// The companion API's keys (docs/API.md): one migration of its own, registered after the others, so
/// the sessions schema and the access schema change independently.
///
/// Only a SHA-256 of each secret is kept: a copy of the database does not let anyone in. Keys are not
/// training data, so `delete-all` leaves them (a companion that deletes the data keeps its access).
enum APIKeySchema {
    static let migrationIdentifier = "api-keys-v1"

    static func migrate(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE api_key (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('paired', 'command-line', 'login')),
                secret_sha256 TEXT NOT NULL UNIQUE,
                created_unix_seconds INTEGER NOT NULL
            )
            """)
    }
}
