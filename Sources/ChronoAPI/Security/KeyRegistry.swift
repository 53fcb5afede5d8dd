import ChronoCore
import ChronoStore
import Synchronization

/// Issues API keys and checks presented ones against the store, which keeps only their SHA-256; and
/// remembers when each was last used (`KeyUseLedger`: in memory, written to the store at most once a
/// minute per key).
public struct KeyRegistry: Sendable {
    public let store: ChronoStore
    private let uses: KeyUses
    private let nowUnixSeconds: @Sendable () -> Int64

    /// - Parameter nowUnixSeconds: the wall clock for last-use times (tests pass their own).
    public init(store: ChronoStore, persistInterval: Int64 = KeyUseLedger.defaultPersistInterval,
                nowUnixSeconds: @escaping @Sendable () -> Int64 = { LocalTimeZone.nowUnixNanoseconds() / 1_000_000_000 }) {
        self.store = store
        self.uses = KeyUses(KeyUseLedger(persistInterval: persistInterval))
        self.nowUnixSeconds = nowUnixSeconds
    }

    /// Longest key name accepted (a device or browser name, for the list).
    public static let maximumNameLength = 64

    /// Checks a key's name: 1 to 64 printable characters.
    public static func validName(_ raw: String) throws(APIError) -> String {
        let name = String(raw.unicodeScalars.filter { !$0.properties.isWhitespace || $0 == " " }).trimmingWhitespace
        guard !name.isEmpty, name.count <= maximumNameLength,
              !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw APIError(.unprocessableContent, "invalid_name", "A key's name is 1 to \(maximumNameLength) printable characters, e.g. \"Anna's phone\".")
        }
        return name
    }

    /// Makes and stores a new key; the secret is returned once and never kept. `pairedFrom` is the
    /// requester's address for a key approved on the device, nil otherwise.
    public func issue(name: String, kind: APIKeyRecord.Kind, pairedFrom: String? = nil, nowUnixSeconds: Int64) throws -> (record: APIKeyRecord, secret: String) {
        let secret = Secrets.apiKey()
        let record = APIKeyRecord(id: Secrets.keyID(), name: try Self.validName(name), kind: kind, createdUnixSeconds: nowUnixSeconds, pairedFrom: pairedFrom)
        try store.addAPIKey(record, secretSHA256: SHA256.hex(secret))
        return (record, secret)
    }

    /// The key a presented secret belongs to, or nil.
    public func verify(secret: String) throws(StoreError) -> APIKeyRecord? {
        guard secret.hasPrefix("cck_"), secret.utf8.count < 128 else { return nil }
        return try store.apiKey(secretSHA256: SHA256.hex(secret))
    }

    /// A request was let in with key `id`: remembered now, written to the store when the ledger says so.
    public func noteUse(id: String) throws(StoreError) {
        let now = nowUnixSeconds()
        guard uses.mutex.withLock({ $0.noteUse(id: id, at: now) }) else { return }
        try store.noteAPIKeyUse(id: id, atUnixSeconds: now)
    }

    /// Every key, with the last use this server saw where it is later than the stored one.
    public func list() throws(StoreError) -> [APIKeyRecord] {
        let ledger = uses.mutex.withLock { $0 }
        return try store.apiKeys().map { record in
            var record = record
            if let seen = ledger.lastUsed(id: record.id) { record.lastUsedUnixSeconds = max(record.lastUsedUnixSeconds ?? seen, seen) }
            return record
        }
    }

    /// Removes a key and what was remembered of it; false when there was no such key.
    public func revoke(id: String) throws(StoreError) -> Bool {
        uses.mutex.withLock { $0.forget(id: id) }
        return try store.revokeAPIKey(id: id)
    }
}

/// The ledger shared by every copy of the registry (a struct handed to the middleware and the routes).
private final class KeyUses: Sendable {
    let mutex: Mutex<KeyUseLedger>
    init(_ ledger: KeyUseLedger) { mutex = Mutex(ledger) }
}
