import ChronoCore
import ChronoHardware
import ChronoRuntime
import ChronoStore

/// How sessions run on this machine, as the command line chose it (not which session: that is
/// `SessionFlags`): the board and its desktop stand-ins, the state file, real-time scheduling and the
/// JSON lines. Already parsed and validated; the live commands and the daemon both take it.
public struct LiveOptions {
    /// The board file (a name in boards/ or a path); nil: detected, else desktop.
    public var board: String?
    /// Desktop board: ring the terminal bell with each motor pulse.
    public var bell: Bool
    /// Desktop board: a repeat of the same key within this many ms is the key still held.
    public var keyHoldMilliseconds: Int64
    /// Tests only: log every motor command to this file.
    public var motorLog: String?
    /// The glanceable state file, nil when turned off.
    public var stateFile: StateFile?
    /// Ask for SCHED_FIFO and locked memory.
    public var realtime: Bool
    /// Also print each completed session, with its health record and its session record, as a JSON line.
    public var printJSONLines: Bool

    public init(board: String?, bell: Bool, keyHoldMilliseconds: Int64, motorLog: String?, stateFile: StateFile?,
                realtime: Bool, printJSONLines: Bool) {
        self.board = board
        self.bell = bell
        self.keyHoldMilliseconds = keyHoldMilliseconds
        self.motorLog = motorLog
        self.stateFile = stateFile
        self.realtime = realtime
        self.printJSONLines = printJSONLines
    }

    /// Opens the board's drivers (`flags`: its `--debounce-ms` is a GPIO button's kernel debounce).
    func openDrivers(flags: SessionFlags) throws -> BoardDrivers {
        try BoardDrivers(boardName: board, flags: flags, bell: bell, keyHoldMilliseconds: keyHoldMilliseconds, motorLog: motorLog)
    }

    /// Where completed sessions go: the store, then `extra`, and standard output too with JSON lines.
    func recorder(store: ChronoStore, console: LineOutput, also extra: [SessionRecorder] = []) -> SessionRecorder {
        RecorderFanOut([StoreSessionRecorder(store: store)] + extra + (printJSONLines ? [JSONLinesRecorder(output: console)] : []),
                       isWallClockSynchronised: { store.isWallClockSynchronised })
    }

    /// The loop's real-time priority, or nil without real-time scheduling.
    var realtimePriority: Int32? { realtime ? RealtimeScheduling.defaultPriority : nil }
}

/// The session's choices (flags, settings and board together) do not make a session: a usage error
/// the command line reports with the resolver's words.
public struct InvalidSessionChoice: Error, CustomStringConvertible {
    /// The resolver's (or the core's) refusal.
    public let underlying: any Error

    public var description: String { String(describing: underlying) }
}
