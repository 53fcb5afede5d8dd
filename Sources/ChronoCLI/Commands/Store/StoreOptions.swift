import ArgumentParser
import ChronoCommandLine
import ChronoStore
import Foundation

/// The option every command that touches the store shares: where the data lives. Opening also turns
/// sessions left `running` by a dead process into `interrupted` and says so once.
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

    /// Opens the store and recovers sessions cut off by a crash, printing the notice once.
    func openStore(service: Bool = false) throws -> ChronoStore {
        try openChronoStore(try location(service: service))
    }

    /// Opens the store for a command that runs sessions: a store that cannot be written (a read-only
    /// card, a full disk at open) is refused before any session starts, since training a session that
    /// cannot be saved would lose it.
    func openWritableStore(service: Bool = false) throws -> ChronoStore {
        let store = try openStore(service: service)
        if let reason = store.readOnlyReason {
            throw CommandFailure(StoreError.readOnly(path: store.location.directory, reason: reason))
        }
        return store
    }
}

/// Opens the store in `location`; sessions left `running` by a process that is gone become
/// `interrupted`, and "Previous session ended unexpectedly." is printed once, by the command that found them.
func openChronoStore(_ location: StoreLocation) throws -> ChronoStore {
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
