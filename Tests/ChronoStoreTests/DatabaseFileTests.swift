import ChronoTesting
import ChronoCore
@testable import ChronoStore
import Foundation
import GRDB
import Testing

@Suite("Corrupt or foreign database files")
struct DatabaseFileTests {
    func expectRefused(_ contents: Data?, prepare: ((String) throws -> Void)? = nil, matches: (StoreError) -> Bool) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = StoreLocation(directory: directory.path).databasePath
        if let contents { FileManager.default.createFile(atPath: path, contents: contents) }
        try prepare?(path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var refusal: StoreError?
        do { _ = try ChronoStore.openForTest(directory) } catch { refusal = error as? StoreError }
        let error = try #require(refusal)
        #expect(matches(error))
        #expect(error.description.contains(path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("garbage bytes: corrupt, named, with the fix, file untouched")
    func garbage() throws {
        try expectRefused(Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7) })) { error in
            guard case .corrupt = error else { return false }
            return error.description.contains("mv ")
        }
    }

    @Test("a text file with our name: corrupt, untouched")
    func text() throws {
        try expectRefused(Data("hello\n".utf8)) { if case .corrupt = $0 { return true } else { return false } }
    }

    @Test("another program's SQLite database: foreign, untouched")
    func foreign() throws {
        try expectRefused(nil, prepare: { path in
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in try db.execute(sql: "CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada')") }
        }) { error in
            guard case .foreign = error else { return false }
            return error.description.contains("contacts")
        }
    }

    @Test("our database with a damaged page: reported as corrupt when read")
    func damagedPage() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let store = try ChronoStore.openForTest(directory)
            try store.importFinishedSessions((0..<200).map { Sample.finish(sid("S\($0)"), Sample.attempts(.challenge, [61, 62, 63])) }, nowUnixNanoseconds: Sample.now)
            try store.pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        }
        let path = StoreLocation(directory: directory.path).databasePath
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for index in 4096..<min(bytes.count, 4096 * 6) { bytes[index] = 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: path))
        var refusal: StoreError?
        do {
            let store = try ChronoStore.openForTest(directory)
            _ = try store.integrityCheck()
            _ = try store.recentSessions(limit: 1000)
        } catch { refusal = error as? StoreError }
        guard case .corrupt = try #require(refusal) else { Issue.record("\(String(describing: refusal))"); return }
    }
}
