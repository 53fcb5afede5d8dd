import ArgumentParser
import ChronoCommandLine
import ChronoCollector
import ChronoStore
import Foundation

/// Where the collector keeps its data: an SQLite file in a data directory (the default), or a
/// PostgreSQL database (`--database postgres://…`).
struct CollectorStoreOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"),
            help: "Data directory of the SQLite collector store (default: $XDG_DATA_HOME/chronoception or ~/.local/share/chronoception; the file is collector.sqlite3).")
    var dataDirectory: String?
    @Option(help: "A PostgreSQL database instead of SQLite: postgres://USER@HOST:PORT/DB (password in PGPASSWORD; ?sslmode=disable|prefer|require).")
    var database: String?

    /// The files of the SQLite store these options name (none for PostgreSQL): what `-o` must never be.
    func ownedFiles() throws -> StoreOwnedFiles? {
        guard database == nil else { return nil }
        let location: StoreLocation
        do {
            location = try StoreLocation.resolve(explicit: dataDirectory, environment: ProcessInfo.processInfo.environment, runningAsService: false)
        } catch {
            throw CommandFailure(error)
        }
        return StoreOwnedFiles(databasePath: location.directory + "/" + SQLiteCollectorStore.fileName)
    }

    /// Opens the store; the failure is one `error:` line with the fix.
    func open() async throws -> any CollectorStore {
        if let database {
            guard dataDirectory == nil else {
                throw CommandFailure(message: "Give --data-dir (SQLite) or --database (PostgreSQL), not both.", status: .usage)
            }
            let url: PostgresURL
            do { url = try PostgresURL.parse(database) } catch { throw CommandFailure(message: error.description, status: .usage) }
            do { return try await PostgresCollectorStore.open(url) } catch { throw CollectorFailure.wrap(error) }
        }
        let location: StoreLocation
        do {
            location = try StoreLocation.resolve(explicit: dataDirectory, environment: ProcessInfo.processInfo.environment, runningAsService: false)
        } catch {
            throw CommandFailure(error)
        }
        do { return try SQLiteCollectorStore.open(directory: location.directory) } catch { throw CollectorFailure.wrap(error) }
    }
}

/// The exit status of each collector failure (docs/EXIT-CODES.md).
enum CollectorFailure {
    static func wrap(_ error: any Error) -> CommandFailure {
        guard let error = error as? CollectorError else { return CommandFailure(error) }
        let status: ExitStatus
        switch error {
        case .invalidValue, .unknownDevice: status = .usage
        case .unreachable: status = .deviceUnavailable
        case .schemaMismatch: status = .storeUnusable
        case .full: status = .ioError
        case .codeRefused, .keyRefused, .invalidBatch, .batchTooLarge, .protocolMismatch, .deviceEnrolled: status = .checkFailed
        case .database: status = .ioError
        }
        return CommandFailure(message: error.description, status: status)
    }
}

/// Runs an async collector command on a store it opens and always closes.
func withCollectorStore(_ options: CollectorStoreOptions, _ body: @escaping @Sendable (any CollectorStore) async throws -> Void) throws {
    try runBlocking {
        let store = try await options.open()
        do {
            try await body(store)
            await store.close()
        } catch {
            await store.close()
            if error is CommandFailure { throw error }
            throw CollectorFailure.wrap(error)
        }
    }
}

/// Unix nanoseconds as `2026-11-23 16:05 UTC`.
enum CollectorTimeText {
    static func utc(_ nanoseconds: Int64?) -> String {
        guard let nanoseconds else { return "never" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(nanoseconds) / 1e9))
    }
}
