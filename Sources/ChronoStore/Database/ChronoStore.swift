import ChronoCore
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
    let pool: DatabasePool
    /// The kernel's view of the wall clock (the `wall-clock-check` setting may override it).
    let kernelClock: any WallClockStatus
    /// Makes the health-log writer for a path; tests inject failing ones.
    let makeHealthTarget: @Sendable (String) -> any HealthLogTarget

    /// Opens (creating if needed) the store in `location`. A damaged or foreign database file is
    /// reported with `StoreError.corrupt`/`.foreign` and left exactly as it was.
    public static func open(
        _ location: StoreLocation,
        clock: any WallClockStatus = KernelWallClockStatus(),
        healthTarget: @escaping @Sendable (String) -> any HealthLogTarget = { HealthLogFile(path: $0) }
    ) throws(StoreError) -> ChronoStore {
        try makeDirectory(location.directory, mode: 0o700)
        let path = location.databasePath
        let isNew = access(path, F_OK) != 0
        try DatabaseFileCheck.verify(path: path)
        if isNew {
            // The default health-log directory is created with a new store only: if it goes missing
            // later, that is a logging failure to report (SPEC §4), not something to paper over.
            try? makeDirectory(location.directory + "/" + (StoreLocation.defaultHealthLogRelativePath.split(separator: "/").first.map(String.init) ?? ""), mode: 0o755)
        }
        do {
            var configuration = Configuration()
            configuration.label = "chronoception-store"
            configuration.busyMode = .timeout(10)
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
            let pool = try DatabasePool(path: path, configuration: configuration)
            let migrator = StoreSchema.migrator
            let unknown = try pool.read { db in
                try migrator.hasBeenSuperseded(db)
                    ? Array(try migrator.appliedIdentifiers(db).subtracting(migrator.migrations)) : []
            }
            guard unknown.isEmpty else { throw StoreError.newerSchema(path: path, migrations: unknown.sorted()) }
            try migrator.migrate(pool)
            return ChronoStore(location: location, pool: pool, kernelClock: clock, makeHealthTarget: healthTarget)
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw StoreError(path: path, error)
        } catch {
            throw .database(path: path, detail: String(describing: error))
        }
    }

    init(location: StoreLocation, pool: DatabasePool, kernelClock: any WallClockStatus,
         makeHealthTarget: @escaping @Sendable (String) -> any HealthLogTarget) {
        self.location = location
        self.pool = pool
        self.kernelClock = kernelClock
        self.makeHealthTarget = makeHealthTarget
    }

    /// Runs a write transaction, turning SQLite errors into store errors that name the file.
    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do { return try pool.write(body) } catch { throw mapped(error) }
    }

    /// Runs a read (a consistent snapshot), turning SQLite errors into store errors.
    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do { return try pool.read(body) } catch { throw mapped(error) }
    }

    func mapped(_ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
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
