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

    public init(id: String, name: String, kind: Kind, createdUnixSeconds: Int64) {
        self.id = id
        self.name = name
        self.kind = kind
        self.createdUnixSeconds = createdUnixSeconds
    }
}

extension ChronoStore {
    /// Stores a new key by the SHA-256 (hex) of its secret.
    public func addAPIKey(_ record: APIKeyRecord, secretSHA256 hash: String) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: "INSERT INTO api_key (id, name, kind, secret_sha256, created_unix_seconds) VALUES (?, ?, ?, ?, ?)",
                arguments: [record.id, record.name, record.kind.rawValue, hash, record.createdUnixSeconds])
        }
    }

    /// Every key, oldest first.
    public func apiKeys() throws(StoreError) -> [APIKeyRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, kind, created_unix_seconds FROM api_key ORDER BY created_unix_seconds, id").map(Self.apiKey)
        }
    }

    /// The key whose secret hashes to `hash`, if any.
    public func apiKey(secretSHA256 hash: String) throws(StoreError) -> APIKeyRecord? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT id, name, kind, created_unix_seconds FROM api_key WHERE secret_sha256 = ?", arguments: [hash]).map(Self.apiKey)
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
        APIKeyRecord(id: row[0], name: row[1], kind: APIKeyRecord.Kind(rawValue: row[2]) ?? .commandLine, createdUnixSeconds: row[3])
    }
}
