import ChronoCore
import ChronoStore

/// Issues API keys and checks presented ones against the store, which keeps only their SHA-256.
public struct KeyRegistry: Sendable {
    public let store: ChronoStore

    public init(store: ChronoStore) {
        self.store = store
    }

    /// Longest key name accepted (a device or browser name, for the list).
    public static let maximumNameLength = 64

    /// Checks a key's name: 1 to 64 printable characters.
    public static func validName(_ raw: String) throws(APIError) -> String {
        let name = String(raw.unicodeScalars.filter { !$0.properties.isWhitespace || $0 == " " }).trimmingSpaces
        guard !name.isEmpty, name.count <= maximumNameLength,
              !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw APIError(.unprocessableContent, "invalid_name", "A key's name is 1 to \(maximumNameLength) printable characters, e.g. \"Anna's phone\".")
        }
        return name
    }

    /// Makes and stores a new key; the secret is returned once and never kept.
    public func issue(name: String, kind: APIKeyRecord.Kind, nowUnixSeconds: Int64) throws -> (record: APIKeyRecord, secret: String) {
        let secret = Secrets.apiKey()
        let record = APIKeyRecord(id: Secrets.keyID(), name: try Self.validName(name), kind: kind, createdUnixSeconds: nowUnixSeconds)
        try store.addAPIKey(record, secretSHA256: SHA256.hex(secret))
        return (record, secret)
    }

    /// The key a presented secret belongs to, or nil.
    public func verify(secret: String) throws(StoreError) -> APIKeyRecord? {
        guard secret.hasPrefix("cck_"), secret.utf8.count < 128 else { return nil }
        return try store.apiKey(secretSHA256: SHA256.hex(secret))
    }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
