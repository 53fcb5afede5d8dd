import ChronoTesting
import ChronoCore
@testable import ChronoStore
import Foundation
import GRDB
import Testing

@Suite("API keys: the pairing address and the last use (migration api-key-use-v1)")
struct APIKeyUseStoreTests {
    @Test("a key stored before api-key-use-v1 keeps its fields, with no pairing address and no last use")
    func migratesExistingKeys() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let migrations = StoreSchema.migrator.migrations
        let index = try #require(migrations.firstIndex(of: APIKeyUseSchema.migrationIdentifier))
        let before = migrations[index - 1]
        do {
            // A database as the release before this migration left it, with one key.
            let queue = try DatabaseQueue(path: StoreLocation(directory: directory.path).databasePath)
            try StoreSchema.migrator.migrate(queue, upTo: before)
            try queue.write { db in
                try db.execute(sql: "INSERT INTO api_key (id, name, kind, secret_sha256, created_unix_seconds) VALUES ('K1', 'Old phone', 'paired', 'ab', 1700000000)")
            }
        }
        let store = try ChronoStore.openForTest(directory)
        #expect(try store.appliedMigrations() == migrations.sorted())
        #expect(try store.apiKeys() == [APIKeyRecord(id: "K1", name: "Old phone", kind: .paired, createdUnixSeconds: 1_700_000_000,
                                                     pairedFrom: nil, lastUsedUnixSeconds: nil)])
    }

    @Test("a key keeps the address it paired from; its last use is written as given and never moves back")
    func pairedFromAndLastUse() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try store.addAPIKey(APIKeyRecord(id: "K1", name: "Anna's phone", kind: .paired, createdUnixSeconds: 100, pairedFrom: "10.9.0.2"), secretSHA256: "h1")
        try store.addAPIKey(APIKeyRecord(id: "K2", name: "Script", kind: .commandLine, createdUnixSeconds: 200), secretSHA256: "h2")
        #expect(try store.noteAPIKeyUse(id: "K1", atUnixSeconds: 500))
        #expect(try store.noteAPIKeyUse(id: "K1", atUnixSeconds: 400))
        #expect(try store.noteAPIKeyUse(id: "gone", atUnixSeconds: 400) == false)
        #expect(try store.apiKeys() == [
            APIKeyRecord(id: "K1", name: "Anna's phone", kind: .paired, createdUnixSeconds: 100, pairedFrom: "10.9.0.2", lastUsedUnixSeconds: 500),
            APIKeyRecord(id: "K2", name: "Script", kind: .commandLine, createdUnixSeconds: 200, pairedFrom: nil, lastUsedUnixSeconds: nil),
        ])
        #expect(try store.apiKey(secretSHA256: "h1")?.lastUsedUnixSeconds == 500)
    }
}
