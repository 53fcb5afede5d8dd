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

    static func verify(path: String) throws(StoreError) {
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
        let (appID, tables) = try inspect(path: path)
        if appID == applicationID { return }
        if appID == 0 && tables.isEmpty { return }
        let listed = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
        throw .foreign(path: path, detail: "application_id \(appID), tables: \(listed.isEmpty ? "none" : listed)")
    }

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

    /// Reads the application id and table names through SQLite without writing: a plain connection
    /// (no WAL switch, no migration) that only runs two queries.
    private static func inspect(path: String) throws(StoreError) -> (Int32, [String]) {
        do {
            var configuration = Configuration()
            configuration.label = "chronoception-file-check"
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            return try queue.read { db in
                let appID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
                return (appID, tables)
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
        default:
            self = .database(path: path, detail: error.message ?? String(describing: error))
        }
    }
}
