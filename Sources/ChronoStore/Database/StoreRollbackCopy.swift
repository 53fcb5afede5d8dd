import Foundation
import Glibc
import GRDB

/// The store's side of an update of the card (docs/IMAGE.md, "Updates"): a copy of the database taken
/// on the new slot's first boot, before the new version opens (and may migrate) it, and put back only
/// if the update rolls back and the old version could not open what the new one left.
///
/// Why a copy and not only migrations the old version can read: a build refuses a database with
/// migrations it does not know (`StoreError.newerSchema`), which keeps an old build from writing a
/// newer schema wrong. Sessions are held from the install until the new slot confirms itself
/// (`UpdateRecord.holdsSessions`), so no session completes between the copy and a rollback; the
/// database that is replaced is kept beside it, so nothing at all is thrown away.
///
/// Both steps run as root before `chronoception.service` starts, with nothing holding the database:
/// the files are copied whole (database and its WAL) and given the data directory's owner.
public enum StoreRollbackCopy {
    /// The copy's name beside the database.
    public static let copyFileName = "chronoception-before-update.sqlite"

    /// Copies the database (and its WAL) of `location` to `copyFileName`; false when there is no
    /// database yet (nothing to keep).
    @discardableResult
    public static func take(_ location: StoreLocation) throws(StoreError) -> Bool {
        let source = location.databasePath
        guard FileManager.default.fileExists(atPath: source) else { return false }
        let copy = location.directory + "/" + copyFileName
        for suffix in ["", "-wal"] {
            let from = source + suffix, to = copy + suffix
            try? FileManager.default.removeItem(atPath: to)
            guard FileManager.default.fileExists(atPath: from) else { continue }
            do { try FileManager.default.copyItem(atPath: from, toPath: to) } catch {
                throw .database(path: to, detail: "cannot copy the database before the update: \(error.localizedDescription)")
            }
            ownLikeFolder(to, folder: location.directory)
        }
        return true
    }

    /// After a rollback: when the database has migrations this build does not know and a copy exists,
    /// the database is moved aside to `chronoception-from-VERSION.sqlite` and the copy put in its place.
    /// - Returns: the name it was moved aside to, or nil when nothing needed restoring.
    public static func restoreIfNewer(_ location: StoreLocation, newVersion: String) throws(StoreError) -> String? {
        let copy = location.directory + "/" + copyFileName
        guard FileManager.default.fileExists(atPath: copy), FileManager.default.fileExists(atPath: location.databasePath) else { return nil }
        let unknown = try migrations(of: location).subtracting(StoreSchema.migrator.migrations)
        guard !unknown.isEmpty else { return nil }
        let aside = "chronoception-from-\(newVersion).sqlite"
        for suffix in ["", "-wal", "-shm"] {
            let current = location.databasePath + suffix
            guard FileManager.default.fileExists(atPath: current) else { continue }
            let target = location.directory + "/" + aside + suffix
            try? FileManager.default.removeItem(atPath: target)
            guard rename(current, target) == 0 else {
                throw .database(path: current, detail: "cannot move it aside for the rollback: \(String(cString: strerror(errno)))")
            }
        }
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: copy + suffix) {
            guard rename(copy + suffix, location.databasePath + suffix) == 0 else {
                throw .database(path: copy + suffix, detail: "cannot put the copy back: \(String(cString: strerror(errno)))")
            }
        }
        return aside
    }

    /// The migrations applied to the database, read from a private copy of it (opening the database
    /// itself as root would leave root-owned -shm and -wal files the service could not open).
    static func migrations(of location: StoreLocation) throws(StoreError) -> Set<String> {
        let scratch = NSTemporaryDirectory() + "/chronoception-migrations-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        do {
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: location.databasePath + suffix) {
                try FileManager.default.copyItem(atPath: location.databasePath + suffix, toPath: scratch + "/db.sqlite" + suffix)
            }
            let queue = try DatabaseQueue(path: scratch + "/db.sqlite")
            return try queue.read { db in
                guard try db.tableExists("grdb_migrations") else { return [] }
                return Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
            }
        } catch {
            throw .database(path: location.databasePath, detail: "cannot read which migrations it has: \(error)")
        }
    }

    private static func ownLikeFolder(_ path: String, folder: String) {
        var status = stat()
        guard getuid() == 0, stat(folder, &status) == 0 else { return }
        _ = chown(path, status.st_uid, status.st_gid)
    }
}
