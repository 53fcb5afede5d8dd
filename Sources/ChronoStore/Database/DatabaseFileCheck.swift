import ChronoCore
import Foundation
import Glibc
import GRDB

/// Looks at an existing database file before the store opens it for writing, so that a damaged or
/// foreign file is reported and never changed: opening a pool switches the file to WAL and migrates
/// it, which would alter somebody else's database.
///
/// A file is ours when its `application_id` is Chronoception's; a file with no table at all (created,
/// then the process died before the first migration committed) is treated as new.
enum DatabaseFileCheck {
    /// `PRAGMA application_id` of every Chronoception database: "CHRN" in ASCII.
    static let applicationID: Int32 = 0x4348_524E
    static let sqliteMagic: [UInt8] = Array("SQLite format 3\0".utf8)

    /// Whether the file exists with no bytes (created, then the process died before SQLite wrote).
    static func isEmptyFile(path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_size == 0
    }

    /// - Parameter knownMigrations: the migrations this build knows; a database with others is newer.
    static func verify(path: String, knownMigrations: Set<String> = []) throws(StoreError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw .database(path: path, detail: "cannot read it: \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .foreign(path: path, detail: "it is not a regular file")
        }
        guard info.st_size > 0 else { return }
        let header = try readHeader(path: path)
        guard header.count >= 100, Array(header.prefix(16)) == sqliteMagic else {
            throw .corrupt(path: path, detail: "no SQLite header")
        }
        // `quick_check` reads every page through SQLite (a third of a second for 100,000 sessions
        // here): it is skipped when the files have the size and time the last check left and every
        // byte still has the digest it had then. Same size and time with other bytes is damage the
        // kernel never wrote (a flipped bit on the card), refused before anything opens the file.
        let (comparison, marker) = VerifiedMarker.compare(path: path)
        if comparison == .damaged { throw .corrupt(path: path, detail: bitRotDetail) }
        let (appID, tables, applied, integrity) = try inspect(path: path, integrity: comparison != .same)
        if appID == 0 && tables.isEmpty { return }
        if appID == applicationID {
            let unknown = applied.subtracting(knownMigrations)
            if !knownMigrations.isEmpty && !unknown.isEmpty { throw .newerSchema(path: path, migrations: unknown.sorted()) }
            guard integrity == ["ok"] else {
                let shown = integrity.prefix(3).joined(separator: "; ").replacingOccurrences(of: "\n", with: " ")
                throw .corrupt(path: path, detail: "integrity check: \(shown.count > 300 ? String(shown.prefix(300)) + "…" : shown)")
            }
            VerifiedMarker.opened(path, marker: marker)
            return
        }
        let listed = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
        throw .foreign(path: path, detail: "application_id \(appID), tables: \(listed.isEmpty ? "none" : listed)")
    }

    /// Why a file whose bytes no longer match its marker is refused (inside the corrupt message).
    static let bitRotDetail = "its bytes changed although its size and modification time did not: bit rot on the storage"

    private static func readHeader(path: String) throws(StoreError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .database(path: path, detail: "cannot open it for reading: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 100)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 100) }
        return count > 0 ? Array(buffer.prefix(count)) : []
    }

    /// Reads the application id, table names, applied migrations and `quick_check` through a
    /// read-only SQLite connection: nothing about the file can change (no WAL switch, no migration,
    /// no journal rollback).
    private static func inspect(path: String, integrity checkIntegrity: Bool) throws(StoreError) -> (Int32, [String], Set<String>, [String]) {
        do {
            let queue = try ReadOnlyConnection.open(path: path, label: "chronoception-file-check")
            return try queue.read { db in
                let appID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
                guard appID == applicationID else { return (appID, tables, [], ["ok"]) }
                let applied = tables.contains("grdb_migrations")
                    ? Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")) : []
                let integrity = checkIntegrity ? try String.fetchAll(db, sql: "PRAGMA quick_check(3)") : ["ok"]
                return (appID, tables, applied, integrity)
            }
        } catch let error as DatabaseError {
            throw StoreError(path: path, error)
        } catch {
            throw .database(path: path, detail: String(describing: error))
        }
    }
}

extension StoreError {
    /// Maps an SQLite error to a store error that names the file; damage gets the corrupt message.
    init(path: String, _ error: DatabaseError) {
        switch error.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            self = .corrupt(path: path, detail: error.message ?? "SQLite reports corruption")
        case .SQLITE_READONLY:
            self = .readOnly(path: PathText.directory(of: path), reason: "SQLite reports it read-only: \(error.message ?? "attempt to write a readonly database")")
        case .SQLITE_FULL:
            self = .database(path: path, detail: "the disk is full; nothing was changed. Free some space and try again")
        default:
            self = .database(path: path, detail: error.message ?? String(describing: error))
        }
    }
}
