import ArgumentParser
import ChronoCommandLine
import ChronoCore
import ChronoRuntime
import ChronoStore
import Foundation
import Synchronization

/// The option every command that touches the store shares: where the data lives, and the one
/// resolver of it. Opening also turns sessions left `running` by a dead process into `interrupted`
/// and says so once. A `--data-dir` that does not exist is refused (exit 66) unless the command makes
/// a store on purpose; a process that writes sessions live owns its directory (`openOwnedStore`).
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"),
            help: "Data directory (default: $XDG_DATA_HOME/chronoception or ~/.local/share/chronoception; /var/lib/chronoception for the service).")
    var dataDirectory: String?

    /// Resolves the location from the option and the environment.
    func location(service: Bool = false) throws -> StoreLocation {
        do {
            return try StoreLocation.resolve(explicit: dataDirectory, environment: ProcessInfo.processInfo.environment, runningAsService: service)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Whether `--data-dir` names a directory (an empty value means the default).
    var isExplicit: Bool { !(dataDirectory ?? "").isEmpty }

    /// Opens the store and recovers sessions cut off by a crash, printing the notice once.
    /// - Parameter creating: the command makes a store on purpose (`run`, `challenge`, `passive`,
    ///   `fear`, `import`; `simulate` opens its own). Otherwise a `--data-dir` that does not exist is a
    ///   mistake (exit 66), never a new empty store. The default directory is created either way.
    func openStore(service: Bool = false, creating: Bool = false) throws -> ChronoStore {
        try openChronoStore(try location(service: service), mayCreate: creating || !isExplicit)
    }

    /// Opens the store for a command that runs sessions: a store that cannot be written (a read-only
    /// card, a full disk at open) is refused before any session starts, since training a session that
    /// cannot be saved would lose it.
    func openWritableStore(service: Bool = false, creating: Bool = false) throws -> ChronoStore {
        let store = try openStore(service: service, creating: creating)
        if let reason = store.readOnlyReason {
            throw CommandFailure(StoreError.readOnly(path: store.location.directory, reason: reason))
        }
        return store
    }

    /// Opens the store for a process that writes sessions live (`run`, `challenge`, `passive`,
    /// `fear`): the directory is created when missing, then owned — its lock is taken for the life of
    /// the process (`DataDirectoryLock`) before the store opens, so a second device process on the
    /// same directory is refused (exit 75, naming the holder), and any session left `running` here is
    /// one whose process died: it is marked interrupted at once.
    func openOwnedStore() throws -> ChronoStore {
        let location = try location()
        try prepareDataDirectory(location, mayCreate: true)
        var lockProblem: DataDirectoryLock.Failure?
        do {
            OwnedDataDirectory.keep(try DataDirectoryLock.acquire(in: location, command: OwnedDataDirectory.commandLine))
        } catch {
            if case .held = error { throw CommandFailure(message: error.description, status: .storeBusy) }
            // A read-only directory cannot hold a lock file: the writable open below says why, in the
            // store's words; anything else about the file is refused after it.
            lockProblem = error
        }
        let store = try openWritableStore(creating: true)
        if let lockProblem { throw CommandFailure(message: lockProblem.description, status: .permission) }
        return store
    }

    /// The state file a live process on this data directory writes: `--state-file`, else the default
    /// path for its data directory, recording the directory (`data_dir`).
    func stateFile(explicit: String?) -> StateFile {
        let directory = try? location().directory
        return StateFile(path: explicit ?? Self.defaultStateFilePath(dataDirectory: dataDirectory),
                         dataDirectory: directory.map(absolutePath))
    }

    /// The default state file for `--data-dir dataDirectory` (nil or empty: not given): `state.json`
    /// for the default data directory, else one named from the directory
    /// (`StateFile.defaultPath(forDataDirectory:)`), so a single session on another directory never
    /// replaces the daemon's file. `status --data-dir` reads the same one.
    static func defaultStateFilePath(dataDirectory: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard let dataDirectory, !dataDirectory.isEmpty else { return StateFile.defaultPath(environment: environment) }
        let given = absolutePath(StoreLocation(directory: dataDirectory).directory)
        let standard = (try? StoreLocation.resolve(explicit: nil, environment: environment, runningAsService: false)).map { absolutePath($0.directory) }
        return StateFile.defaultPath(forDataDirectory: given == standard ? nil : given, environment: environment)
    }
}

/// The data directory lock this process holds, kept until it ends (the kernel releases it then).
enum OwnedDataDirectory {
    private static let held = Mutex<[DataDirectoryLock]>([])

    static func keep(_ lock: DataDirectoryLock) { held.withLock { $0.append(lock) } }

    /// This process's command line as the lock file records it (`chronoception run --board …`).
    static var commandLine: String {
        (["chronoception"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
    }
}

/// `path` made absolute (resolving links when it exists), so that two spellings of one directory
/// name one state file.
func absolutePath(_ path: String) -> String {
    if let real = realpath(path, nil) {
        defer { free(real) }
        return String(cString: real)
    }
    return path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
}

/// A data directory that does not exist is created (0700, with one line on standard error saying
/// so) when `mayCreate`, and refused (exit 66) otherwise: a mistyped `--data-dir` must not become a
/// new empty store that reports "No sessions yet".
func prepareDataDirectory(_ location: StoreLocation, mayCreate: Bool) throws {
    var info = stat()
    guard stat(location.directory, &info) != 0, errno == ENOENT else { return }
    let shown = TerminalSafeText.quoted(location.directory, limit: 200)
    guard mayCreate else {
        throw CommandFailure(message: "The data directory \(shown) does not exist. Check the path given with --data-dir; a new store is made there by `chronoception run`, `challenge`, `passive`, `fear`, `simulate` or `import`.", status: .noInput)
    }
    do { try ChronoStore.makeDataDirectory(location) } catch { throw CommandFailure(error) }
    printError("created \(location.directory)")
}

/// Opens the store in `location`; sessions left `running` by a process that is gone become
/// `interrupted`, and "Previous session ended unexpectedly." is printed once, by the command that found them.
/// - Parameter mayCreate: a missing directory is created (and said so); false: refused (exit 66).
func openChronoStore(_ location: StoreLocation, mayCreate: Bool = true) throws -> ChronoStore {
    try prepareDataDirectory(location, mayCreate: mayCreate)
    let store: ChronoStore
    do { store = try ChronoStore.open(location) } catch { throw CommandFailure(error) }
    guard store.readOnlyReason == nil else { return store }
    // Marking leftovers as interrupted is housekeeping: when it cannot be written (a full disk), the
    // command still runs, and the next one that can write does it.
    do {
        if !(try store.recoverInterruptedSessions(nowUnixNanoseconds: LocalTimeZone.nowUnixNanoseconds())).isEmpty {
            printError("warning: Previous session ended unexpectedly.")
        }
    } catch {
        printError("warning: a session left running by a process that ended could not be marked interrupted yet (\(error)); it will be at the next start.")
    }
    return store
}

/// Runs a command body, turning any error into a `CommandFailure` (its message and exit status are
/// decided once, by the entry point; no usage dump: a broken database file is not a usage mistake).
func reportingFailures(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let exit as ExitCode {
        throw exit
    } catch {
        throw CommandFailure(error)
    }
}

var nowUnixSeconds: Int64 { LocalTimeZone.nowUnixNanoseconds() / 1_000_000_000 }
