import GRDB

/// A key that lets a companion use the API from beyond loopback, as listed (never with its secret).
public struct APIKeyRecord: Hashable, Sendable {
    /// How the key was made: approved on the device's button, at the command line, or by a one-time login URL.
    public enum Kind: String, Sendable, CaseIterable {
        case paired
        case commandLine = "command-line"
        case login
    }

    public var id: String
    public var name: String
    public var kind: Kind
    public var createdUnixSeconds: Int64
    /// The requester's address when it paired (an IP address, `loopback` or `unix-socket`); nil for
    /// keys made at the command line or by a login link.
    public var pairedFrom: String?
    /// When the key was last used, as stored (written at most once a minute per key; see `KeyRegistry`).
    public var lastUsedUnixSeconds: Int64?

    public init(id: String, name: String, kind: Kind, createdUnixSeconds: Int64, pairedFrom: String? = nil, lastUsedUnixSeconds: Int64? = nil) {
        self.id = id
        self.name = name
        self.kind = kind
        self.createdUnixSeconds = createdUnixSeconds
        self.pairedFrom = pairedFrom
        self.lastUsedUnixSeconds = lastUsedUnixSeconds
    }
}

extension ChronoStore {
    private static let apiKeyColumns = "id, name, kind, created_unix_seconds, paired_from, last_used_unix_seconds"

    /// Stores a new key by the SHA-256 (hex) of its secret.
    public func addAPIKey(_ record: APIKeyRecord, secretSHA256 hash: String) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: "INSERT INTO api_key (id, name, kind, secret_sha256, created_unix_seconds, paired_from, last_used_unix_seconds) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [record.id, record.name, record.kind.rawValue, hash, record.createdUnixSeconds, record.pairedFrom, record.lastUsedUnixSeconds])
        }
    }

    /// Every key, oldest first.
    public func apiKeys() throws(StoreError) -> [APIKeyRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.apiKeyColumns) FROM api_key ORDER BY created_unix_seconds, id").map(Self.apiKey)
        }
    }

    /// The key whose secret hashes to `hash`, if any.
    public func apiKey(secretSHA256 hash: String) throws(StoreError) -> APIKeyRecord? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.apiKeyColumns) FROM api_key WHERE secret_sha256 = ?", arguments: [hash]).map(Self.apiKey)
        }
    }

    /// Records that a key was used at `unixSeconds` (never moving it back); false when there is no
    /// such key (revoked meanwhile).
    @discardableResult
    public func noteAPIKeyUse(id: String, atUnixSeconds unixSeconds: Int64) throws(StoreError) -> Bool {
        try write { db in
            try db.execute(
                sql: "UPDATE api_key SET last_used_unix_seconds = max(coalesce(last_used_unix_seconds, ?), ?) WHERE id = ?",
                arguments: [unixSeconds, unixSeconds, id])
            return db.changesCount > 0
        }
    }

    /// Removes a key; false when there was no such key.
    @discardableResult
    public func revokeAPIKey(id: String) throws(StoreError) -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM api_key WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    static func apiKey(_ row: Row) -> APIKeyRecord {
        APIKeyRecord(id: row[0], name: row[1], kind: APIKeyRecord.Kind(rawValue: row[2]) ?? .commandLine, createdUnixSeconds: row[3],
                     pairedFrom: row[4], lastUsedUnixSeconds: row[5])
    }
}
