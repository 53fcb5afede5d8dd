#if canImport(Glibc)
import Glibc
#endif

/// The files a store owns — its database, SQLite's companions (WAL, shared memory, rollback journal),
/// the verified-marker, and the health log — and the one test for "does this path end up at one of
/// them?". Every path the program is told to write (an export's `-o`, the `health-log-file` setting)
/// asks it first, so no output can replace or append into the store (an export over the database
/// would otherwise replace every session, key and enrolment with CSV).
///
/// Paths are compared as the kernel sees them: an existing file by device and inode (through any
/// symlink, hard link, `..` or second mount of the same file), a file not yet there by the real path
/// of its directory and its name.
public struct StoreOwnedFiles: Sendable {
    /// The owned files, by what they are (for messages) and where.
    public let files: [(what: String, path: String)]

    public init(location: StoreLocation, healthLogPath: String?) {
        self.init(databasePath: location.databasePath, healthLogPath: healthLogPath)
    }

    /// The files of the SQLite database at `databasePath` (the device's store, or the collector's
    /// `collector.sqlite3`), and the health log when there is one.
    public init(databasePath database: String, healthLogPath: String? = nil) {
        var files = [("the database", database)]
        for suffix in ["-wal", "-shm", "-journal"] { files.append(("the database's \(suffix.dropFirst()) file", database + suffix)) }
        files.append(("the database's verified-marker", VerifiedMarker.markerPath(database)))
        if let healthLogPath { files.append(("the health log", healthLogPath)) }
        self.files = files
    }

    /// What `candidate` would overwrite or append into, in words ("the database …"), or nil when it
    /// is none of the store's files.
    public func owner(of candidate: String) -> String? {
        if let target = Self.identity(existing: candidate) {
            for file in files where Self.identity(existing: file.path) == target { return "\(file.what) (\(file.path))" }
        }
        guard let resolved = Self.resolvedParent(candidate) else { return nil }
        for file in files where Self.resolvedParent(file.path) == resolved { return "\(file.what) (\(file.path))" }
        return nil
    }

    private struct Identity: Equatable { var device: UInt64, inode: UInt64 }

    private static func identity(existing path: String) -> Identity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// The real path of the parent directory joined with the last component; nil when the parent
    /// cannot be resolved (then nothing can be created there either).
    private static func resolvedParent(_ path: String) -> String? {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty, name != ".", name != "..", let real = realpath(directory, nil) else { return nil }
        defer { free(real) }
        let parent = String(cString: real)
        return (parent == "/" ? "" : parent) + "/" + name
    }
}

extension ChronoStore {
    /// The files this store owns, with the health log as the settings name it.
    public func ownedFiles() throws(StoreError) -> StoreOwnedFiles {
        StoreOwnedFiles(location: location, healthLogPath: try settings().healthLogPath)
    }
}

extension ChronoStore {
    /// The health log at `path`, or a target that refuses every append when `path` ends up at one of
    /// the store's own files (a symlink made after the setting was accepted, say): the record stays
    /// owed and the failure is reported like any other, and the database is never appended to.
    func healthLogTarget(_ path: String) -> any HealthLogTarget {
        if let owner = StoreOwnedFiles(location: location, healthLogPath: nil).owner(of: path) {
            return RefusingHealthLog(reason: "\(path) is \(owner); set health-log-file to a file outside the store")
        }
        return makeHealthTarget(path)
    }
}

/// A health log that is never written: the path would write into the store.
private struct RefusingHealthLog: HealthLogTarget {
    var reason: String
    func append(line: String) throws(HealthLogWriteError) { throw HealthLogWriteError(reason) }
    func existingSyncIdentifiers() throws(HealthLogWriteError) -> Set<String> { throw HealthLogWriteError(reason) }
}
