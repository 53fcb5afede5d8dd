import ChronoTesting
import ChronoCore
@testable import ChronoStore
import Foundation
import GRDB
import Testing

@Suite("Schema migrations")
struct MigrationTests {
    @Test("an empty directory gets every migration, Chronoception's application id, WAL and a sound file")
    func fromEmpty() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        #expect(try store.appliedMigrations() == StoreSchema.migrator.migrations.sorted())
        #expect(try store.integrityCheck() == ["ok"])
        let (appID, journal) = try store.read { db in
            (try Int32.fetchOne(db, sql: "PRAGMA application_id"), try String.fetchOne(db, sql: "PRAGMA journal_mode"))
        }
        #expect(appID == DatabaseFileCheck.applicationID)
        #expect(journal == "wal")
    }

    @Test("a populated database reopens with its data intact and nothing re-applied")
    func fromPopulated() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let store = try ChronoStore.openForTest(directory)
            try store.recordSessionFinished(Sample.finish(sid("S1"), Sample.attempts(.challenge, [61.5, 58.25])), nowUnixNanoseconds: Sample.now)
            try store.setSetting(.defaultAttempts, to: "3", nowUnixSeconds: 1)
        }
        let reopened = try ChronoStore.openForTest(directory)
        #expect(try reopened.appliedMigrations() == StoreSchema.migrator.migrations.sorted())
        let session = try reopened.session(id: sid("S1"))
        #expect(session.outcome.attempts.map(\.tapMark) == Sample.attempts(.challenge, [61.5, 58.25]).attempts.map(\.tapMark))
        #expect(try reopened.settings().session.defaultAttempts == 3)
        #expect(try reopened.integrityCheck() == ["ok"])
    }

    @Test("a database from a newer release is refused and left alone")
    func newerSchema() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let store = try ChronoStore.openForTest(directory)
            try store.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99')") }
        }
        #expect {
            _ = try ChronoStore.openForTest(directory)
        } throws: { error in
            guard case .newerSchema(_, let unknown) = error as? StoreError else { return false }
            return unknown == ["v99"]
        }
    }
}
