import Foundation
import Glibc
import GRDB

/// A connection that can never write to the database file: used to check a file before the store
/// opens it for writing, and to read a store that cannot be written.
///
/// A WAL database needs its `-shm` file; in a read-only directory without one (the store was closed
/// cleanly, then the card remounted read-only, or the disk filled up), SQLite cannot open it
/// read-only. Then, when no `-wal` file holds unmerged changes either, the file is opened as immutable
/// (a URI, which Debian's SQLite accepts): with no other writer possible, that reads exactly what is
/// on disk.
enum ReadOnlyConnection {
    static func open(path: String, label: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.label = label
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.read { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            return queue
        } catch let error as DatabaseError
                    where [.SQLITE_CANTOPEN, .SQLITE_IOERR, .SQLITE_FULL, .SQLITE_READONLY].contains(error.resultCode) {
            // The -shm cannot be made (read-only directory, full disk). Immutable is exact only when no
            // write-ahead log holds changes not yet in the database file.
            var wal = stat()
            guard stat(path + "-wal", &wal) != 0 || wal.st_size == 0 else { throw error }
            let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
            let queue = try DatabaseQueue(path: "file:\(encoded)?immutable=1", configuration: configuration)
            try queue.read { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            return queue
        }
    }
}
