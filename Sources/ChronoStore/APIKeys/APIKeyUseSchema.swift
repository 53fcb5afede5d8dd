import GRDB

/// Where a paired key was asked for, and when each key was last used (`api-key-use-v1`).
///
/// `paired_from` is the requester's address at pairing (an IP address, `loopback` or `unix-socket`),
/// NULL for keys made at the command line or by a login link, and for keys made before this migration.
/// `last_used_unix_seconds` is NULL until a key is first used; the API server writes it at most once a
/// minute per key (`KeyRegistry`), so it is the last use to within a minute.
enum APIKeyUseSchema {
    static let migrationIdentifier = "api-key-use-v1"

    static func migrate(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE api_key ADD COLUMN paired_from TEXT")
        try db.execute(sql: "ALTER TABLE api_key ADD COLUMN last_used_unix_seconds INTEGER")
    }
}
