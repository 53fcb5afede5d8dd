import ArgumentParser
import ChronoCommandLine
import ChronoCore
import ChronoDevice
import ChronoHardware
import ChronoRuntime
import ChronoStore

/// Options shared by the commands that run real sessions (`challenge`, `fear`, `passive`, `run`).
struct LiveSessionOptions: ParsableArguments {
    @Option(help: "The interval: 300, 300s, 5m, 5m0s, 5m 0s or 1m30s (10s to 120m 59s). Default: the default-interval setting (5m 0s).",
            transform: parseInterval)
    var interval: TrainingInterval?

    @Option(help: "The board file to run on (a name in boards/ or a path). Default: detected, else desktop.")
    var board: String?

    @Option(name: .customLong("state-file"), help: "Where to write the glanceable state file (default: $XDG_RUNTIME_DIR/chronoception/state.json, else /run/chronoception/state.json; with --data-dir another directory than the default, state-<hex>.json beside it).")
    var stateFile: String?

    @Flag(name: .customLong("no-state-file"), help: "Do not write the state file.")
    var noStateFile = false

    @Flag(help: "Desktop board: ring the terminal bell with each motor pulse.")
    var bell = false

    @Option(name: .customLong("key-hold-ms"), help: "Desktop board: a repeat of the same key within this many ms is the key still held (must exceed your keyboard's auto-repeat delay).")
    var keyHoldMilliseconds: Int64 = KeyHoldDefaults.firstRepeatMilliseconds

    @Flag(name: .customLong("no-realtime"), help: "Do not ask for SCHED_FIFO and locked memory.")
    var noRealtime = false

    @Option(name: .customLong("test-interval-ms"), help: .hidden)
    var testIntervalMilliseconds: Int64?

    @Option(name: .customLong("motor-log"), help: .hidden)
    var motorLog: String?

    @Flag(name: .customLong("json-lines"), help: "Also print each completed session, with its health record and its session record, as a JSON line on standard output.")
    var printJSONLines = false

    @OptionGroup var timing: SessionTimingOptions

    @OptionGroup var store: StoreOptions

    func validate() throws {
        if testIntervalMilliseconds != nil { try TestMode.require(for: "--test-interval-ms") }
        if motorLog != nil { try TestMode.require(for: "--motor-log") }
        if let testIntervalMilliseconds {
            try BoundedNumber.check(testIntervalMilliseconds, in: 1...Int64(TrainingInterval.maximumSeconds) * 1000, flag: "--test-interval-ms", unit: "ms")
        }
        try BoundedNumber.check(keyHoldMilliseconds, in: 50...5000, flag: "--key-hold-ms", unit: "ms")
    }

    /// The interval given on the command line (or the hidden test-only one, validated above); nil
    /// means the default-interval setting.
    var explicitInterval: TrainingInterval? {
        testIntervalMilliseconds.map { TrainingInterval.testOnly(milliseconds: $0) } ?? interval
    }

    /// The session flags as `SessionResolver` takes them (mode and counts are added by each command).
    var flags: SessionFlags {
        var flags = SessionFlags()
        flags.interval = explicitInterval
        timing.apply(to: &flags)
        return flags
    }

    /// The store, opened for writing before any device is touched (a broken database is reported
    /// first), with the health records a process that died still owed delivered, and its settings.
    /// The board file is read first, though: a mistyped board must not leave a new data directory
    /// behind (the devices are opened later, from the same file).
    func openStore() throws -> (store: ChronoStore, settings: StoreSettings) {
        if let file = live.stateFile, let refusal = StateFile.refusal(file.path) {
            throw CommandFailure(message: StateFileRefused(path: file.path, reason: refusal).description, status: .outputRefused)
        }
        _ = try loadBoard(board ?? BoardDrivers.defaultBoardName())
        // This process owns the data directory from here on (a second device process is refused).
        let store = try self.store.openOwnedStore()
        LiveSession.deliverOwedRecords(store)
        do { return (store, try store.settings()) } catch { throw CommandFailure(error) }
    }

    /// How the sessions run, as `LiveSession` and `DeviceDaemon` take it.
    var live: LiveOptions {
        LiveOptions(board: board, bell: bell, keyHoldMilliseconds: keyHoldMilliseconds, motorLog: motorLog,
                    stateFile: noStateFile ? nil : store.stateFile(explicit: stateFile),
                    realtime: !noRealtime, printJSONLines: printJSONLines)
    }
}

/// The desktop button's defaults, in milliseconds for the command line.
enum KeyHoldDefaults {
    static let firstRepeatMilliseconds: Int64 = 700
}
