import ChronoSync
import Foundation
import GRDB

/// The embedded collector store: one SQLite database (`collector.sqlite3` in the data directory),
/// in WAL mode with `synchronous = FULL` like the device's store — a batch a device was told is
/// stored is on disk. One writer, concurrent readers (a `DatabasePool`); batches from many devices
/// queue on the writer, which is what limits this store (docs/SYNC.md has the figures).
public final class SQLiteCollectorStore: CollectorStore {
    public static let fileName = "collector.sqlite3"

    let pool: DatabasePool
    public let location: String

    /// Opens (creating if needed) the collector database in `directory`, applying migrations.
    public static func open(directory: String) throws(CollectorError) -> SQLiteCollectorStore {
        let path = directory + "/" + fileName
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .unreachable("Cannot create the collector's data directory \(directory): \(error.localizedDescription). Choose another with --data-dir.")
        }
        var configuration = Configuration()
        configuration.label = "chronoception-collector"
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        do {
            let pool = try DatabasePool(path: path, configuration: configuration)
            // GRDB puts a pool's writer to NORMAL after its WAL set-up; the committing connection goes back to FULL.
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            try migrate(pool, path: path)
            return SQLiteCollectorStore(pool: pool, location: path)
        } catch let error as CollectorError {
            throw error
        } catch {
            throw Self.mapped(error, path: path)
        }
    }

    init(pool: DatabasePool, location: String) {
        self.pool = pool
        self.location = location
    }

    static func migrate(_ pool: DatabasePool, path: String) throws {
        try pool.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                var current = 0
                if tables.contains("schema_version") {
                    current = try Int.fetchOne(db, sql: "SELECT version FROM schema_version") ?? 0
                } else if !tables.isEmpty {
                    throw CollectorError.schemaMismatch("\(path) is an SQLite database that is not a collector's (tables \(tables.sorted().joined(separator: ", "))). It was left untouched; choose another --data-dir.")
                } else {
                    try db.execute(sql: "CREATE TABLE schema_version (version INTEGER NOT NULL)")
                    try db.execute(sql: "INSERT INTO schema_version (version) VALUES (0)")
                }
                guard current <= CollectorSchema.version else {
                    throw CollectorError.schemaMismatch("\(path) holds collector schema version \(current); this chronoception-collector knows up to \(CollectorSchema.version). It was left untouched; update the chronoception-collector package on this machine.")
                }
                for version in current..<CollectorSchema.version {
                    for statement in CollectorSchema.migrations[version].sqlite { try db.execute(sql: statement) }
                }
                if current == 0 {
                    try db.execute(sql: "INSERT INTO collector_meta (key, value) VALUES ('collector_id', ?)", arguments: [CollectorCredentials.newUUID()])
                }
                try db.execute(sql: "UPDATE schema_version SET version = ?", arguments: [CollectorSchema.version])
                return .commit
            }
        }
    }

    static func mapped(_ error: any Error, path: String) -> CollectorError {
        if let error = error as? CollectorError { return error }
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_FULL:
                return .full("The collector's disk is full (\(path)); nothing of the request was kept. Free space on it.")
            case .SQLITE_READONLY:
                return .full("The collector's database \(path) cannot be written (\(error.message ?? "read-only")); nothing was kept. Make it writable.")
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                return .schemaMismatch("\(path) is damaged or not an SQLite database (\(error.message ?? "")). It was left untouched; move it aside or choose another --data-dir.")
            default:
                return .database("The collector's database \(path) failed: \(error.message ?? String(describing: error.resultCode)).")
            }
        }
        return .database("The collector's database \(path) failed: \(error).")
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await pool.write(body) } catch { throw Self.mapped(error, path: location) }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await pool.read(body) } catch { throw Self.mapped(error, path: location) }
    }

    public func close() async {
        try? pool.close()
    }

    public func collectorID() async throws -> String {
        try await read { db in try String.fetchOne(db, sql: "SELECT value FROM collector_meta WHERE key = 'collector_id'") ?? "" }
    }
}

extension DatabaseValue {
    init(_ value: CollectorValue) {
        switch value {
        case .null: self = .null
        case .text(let text): self = text.databaseValue
        case .integer(let number): self = number.databaseValue
        case .real(let number): self = number.databaseValue
        case .boolean(let flag): self = (flag ? 1 : 0).databaseValue
        }
    }
}

extension CollectorValue {
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .real(number)
        case .string(let text): self = .text(text)
        case .blob: self = .null
        }
    }
}
