import ChronoCore
import Foundation
import Glibc
import GRDB

/// The local store (SPEC §4–§6, §9): one SQLite database in WAL mode, the source of truth for
/// sessions, progress, presets and settings, plus the ledger of what the health log owes.
///
/// Durability: `synchronous = FULL`, so a committed transaction is on disk when the call returns — a
/// wearable loses power at any moment. Concurrency: a `DatabasePool` (one writer, concurrent readers),
/// so the daemon's writer thread and a `chronoception progress` in another process never block reads.
/// Every method blocks on disk: call them off the session loop.
public final class ChronoStore: Sendable {
    public let location: StoreLocation
    /// A `DatabasePool` normally; a read-only `DatabaseQueue` when the store cannot be written.
    let pool: any DatabaseWriter
    /// Why the store was opened read-only, or nil when it can be written.
    public let readOnlyReason: String?
    /// The kernel's view of the wall clock (the `wall-clock-check` setting may override it).
    let kernelClock: any WallClockStatus
    /// Makes the health-log writer for a path; tests inject failing ones.
    let makeHealthTarget: @Sendable (String) -> any HealthLogTarget

    /// Opens (creating if needed) the store in `location`.
    ///
    /// An existing database is first looked at through a read-only connection: a file that is damaged
    /// (`quick_check`), foreign, or from a newer schema is reported (`corrupt`, `foreign`,
    /// `newerSchema`) and left byte-for-byte as it was. Only then is it opened for writing. When the
    /// directory cannot be written (a read-only SD card, a read-only bind mount), the store opens
    /// read-only: reading and exporting work, writes fail with `readOnly`.
    public static func open(
        _ location: StoreLocation,
        clock: any WallClockStatus = KernelWallClockStatus(),
        healthTarget: @escaping @Sendable (String) -> any HealthLogTarget = { HealthLogFile(path: $0) }
    ) throws(StoreError) -> ChronoStore {
        let path = location.databasePath
        _ = ProcessIdentity.current  // read from /proc now, never at a session's start or finish
        try checkDirectoryPath(location.directory)
        try StoreFileModes.checkTypes(location)
        let exists = access(path, F_OK) == 0
        if exists { try DatabaseFileCheck.verify(path: path, knownMigrations: Set(StoreSchema.migrator.migrations)) }
        if let reason = readOnlyReason(directory: location.directory, exists: exists) {
            guard exists else { throw .directoryUnusable(path: location.directory, reason: reason) }
            return try openReadOnly(location, reason: reason, clock: clock, healthTarget: healthTarget)
        }
        try makeDirectory(location.directory, mode: StoreFileModes.directoryMode)
        // Private whatever existed before (docs/STORE.md "Secrets at rest"), before SQLite opens a file.
        try StoreFileModes.tighten(location, environment: ProcessInfo.processInfo.environment["HOME"])
        let isNew = !exists || DatabaseFileCheck.isEmptyFile(path: path)
        if !exists { try StoreFileModes.createDatabaseFile(location) }
        if isNew {
            // The default health-log directory is created with a new store only: if it goes missing
            // later, that is a logging failure to report (SPEC §4), not something to paper over.
            try? makeDirectory(location.directory + "/" + (StoreLocation.defaultHealthLogRelativePath.split(separator: "/").first.map(String.init) ?? ""), mode: StoreFileModes.directoryMode)
        }
        do {
            var configuration = Configuration()
            configuration.label = "chronoception-store"
            configuration.busyMode = .timeout(10)
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
            let pool: DatabasePool
            do {
                pool = try DatabasePool(path: path, configuration: configuration)
                // GRDB switches a pool's writer to `synchronous = NORMAL` after `prepareDatabase` runs
                // (its WAL set-up), which can lose the last commits on power loss; the writer — the
                // only connection that commits — is put back to FULL here.
                try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
                try StoreSchema.migrator.migrate(pool)
            } catch let error as DatabaseError where exists && [.SQLITE_FULL, .SQLITE_IOERR].contains(error.resultCode) {
                // Opening for writing writes (the WAL, GRDB's set-up); on a full disk that fails, but the
                // checked database can still be read — reading and exporting must work there.
                return try openReadOnly(location, reason: "the disk is full or cannot be written: \(error.message ?? "\(error.resultCode)")",
                                        clock: clock, healthTarget: healthTarget)
            }
            return ChronoStore(location: location, pool: pool, kernelClock: clock, makeHealthTarget: healthTarget)
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw StoreError(path: path, error)
        } catch {
            throw .database(path: path, detail: String(describing: error))
        }
    }

    /// Records, for every database this process checked, that its files as they are now are sound,
    /// so the next open can skip `quick_check` if nothing changed them. Call when the command is done
    /// and its stores are released (the command-line entry point does).
    public static func rememberVerifiedDatabases() {
        VerifiedMarker.refreshAll()
    }

    /// Opens an existing, checked database without ever writing to it.
    private static func openReadOnly(
        _ location: StoreLocation, reason: String, clock: any WallClockStatus,
        healthTarget: @escaping @Sendable (String) -> any HealthLogTarget
    ) throws(StoreError) -> ChronoStore {
        let path = location.databasePath
        do {
            let queue = try ReadOnlyConnection.open(path: path, label: "chronoception-store-read-only")
            let applied = try queue.read { db in try StoreSchema.migrator.appliedIdentifiers(db) }
            guard Set(StoreSchema.migrator.migrations).isSubset(of: applied) else {
                throw StoreError.readOnly(path: location.directory, reason: "\(reason), and the database needs an update this version would write")
            }
            return ChronoStore(location: location, pool: queue, kernelClock: clock, makeHealthTarget: healthTarget,
                               readOnlyReason: reason)
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw StoreError(path: path, error)
        } catch {
            throw .database(path: path, detail: String(describing: error))
        }
    }

    /// The data directory must be a directory (or not exist yet); a regular file there is named as such.
    static func checkDirectoryPath(_ directory: String) throws(StoreError) {
        var info = stat()
        if stat(directory, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw .directoryUnusable(path: directory, reason: "it is a file, not a directory")
            }
        } else if errno == ENOTDIR {
            throw .directoryUnusable(path: directory, reason: "part of the path is a file, not a directory")
        }
        let database = directory + "/" + StoreLocation.databaseFileName
        if stat(database, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw .directoryUnusable(path: directory, reason: "\(database) is a directory where the database file should be; move it aside")
        }
    }

    /// The directory holding `path` ("." for a bare name), or nil at the root or at ".".
    static func parentDirectory(of path: String) -> String? {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard trimmed != "/", trimmed != "." else { return nil }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// Why the store cannot be written, or nil when it can. A directory that does not exist yet is
    /// writable when its nearest existing parent is.
    static func readOnlyReason(directory: String, exists: Bool) -> String? {
        var probe = directory
        var info = stat()
        while stat(probe, &info) != 0, let parent = parentDirectory(of: probe) {
            probe = parent
        }
        if access(probe, W_OK | X_OK) != 0 {
            return errno == EROFS ? "the file system is read-only" : "this user cannot write to \(probe)"
        }
        if exists && access(directory + "/" + StoreLocation.databaseFileName, W_OK) != 0 {
            return errno == EROFS ? "the file system is read-only" : "this user cannot write to the database file"
        }
        return nil
    }

    init(location: StoreLocation, pool: any DatabaseWriter, kernelClock: any WallClockStatus,
         makeHealthTarget: @escaping @Sendable (String) -> any HealthLogTarget, readOnlyReason: String? = nil) {
        self.location = location
        self.pool = pool
        self.readOnlyReason = readOnlyReason
        self.kernelClock = kernelClock
        self.makeHealthTarget = makeHealthTarget
    }

    /// Runs a write transaction, turning SQLite errors into store errors that name the file.
    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        if let readOnlyReason { throw .readOnly(path: location.directory, reason: readOnlyReason) }
        do { return try pool.write(body) } catch { throw mapped(error) }
    }

    /// A write transaction, or a read when the store is read-only; `body` learns which (its second
    /// argument says whether it may write). For reads that also save something derived.
    func writeWhenPossible<T>(_ body: (Database, Bool) throws -> T) throws(StoreError) -> T {
        if readOnlyReason != nil { return try read { db in try body(db, false) } }
        return try write { db in try body(db, true) }
    }

    /// Runs a read (a consistent snapshot), turning SQLite errors into store errors.
    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do { return try pool.read(body) } catch { throw mapped(error) }
    }

    func mapped(_ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? StoredValueCheck.OutOfRange { return .corrupt(path: location.databasePath, detail: error.description) }
        if let error = error as? DatabaseError { return StoreError(path: location.databasePath, error) }
        return .database(path: location.databasePath, detail: String(describing: error))
    }

    /// `PRAGMA integrity_check`: `["ok"]` for a sound database.
    public func integrityCheck() throws(StoreError) -> [String] {
        try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }

    /// The migrations applied to this database, oldest first.
    public func appliedMigrations() throws(StoreError) -> [String] {
        try read { db in try StoreSchema.migrator.appliedIdentifiers(db).sorted() }
    }

    /// Creates the data directory (and missing parents) 0700, for a command that makes a store on
    /// purpose and says so before it opens it.
    public static func makeDataDirectory(_ location: StoreLocation) throws(StoreError) {
        try makeDirectory(location.directory, mode: StoreFileModes.directoryMode)
    }

    static func makeDirectory(_ path: String, mode: mode_t) throws(StoreError) {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, mode) != 0 && errno != EEXIST {
                throw .directoryUnusable(path: path, reason: String(cString: strerror(errno)))
            }
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw .directoryUnusable(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
