/// Every exit status `chronoception` uses: one per kind of failure, so scripts, the service manager
/// and the fault suite can tell a bad flag from a full disk. The table is docs/EXIT-CODES.md; a test
/// checks the two agree. Values follow sysexits(3) where one fits, and LSB's "program is not
/// running" (3) for `status`.
public enum ExitStatus: Int32, CaseIterable, Sendable {
    /// Done, as asked.
    case success = 0
    /// The command ran and found a problem it reports: a bring-up check failed, simulated sessions
    /// broke an invariant, the health log could not be written during a backfill.
    case checkFailed = 1
    /// `status`: no device is running (no state file, or its writer has ended; a zombie has ended).
    case notRunning = 3
    /// The command line is wrong: an unknown option, a missing or malformed value, a number out of range.
    case usage = 64
    /// An input file is malformed: an edge file, a state file, an import file.
    case badInput = 65
    /// An input file or board cannot be found or read; a `--data-dir` that does not exist, for a
    /// command that does not make a store on purpose.
    case noInput = 66
    /// `sync`: the collector cannot be reached (refused connection, no route, no DNS answer, a
    /// timeout). Nothing is lost: try again later.
    case collectorUnreachable = 68
    /// A device (GPIO line, sound card, terminal) cannot be opened or used, a program the command
    /// needs is not installed (`chronoception collector` without the chronoception-collector package),
    /// or `companion`'s API cannot listen (its address or socket in use).
    case deviceUnavailable = 69
    /// A bug: something the program never expects. Please report it.
    case internalError = 70
    /// The output named with `-o` is one of the store's own files (the database, its WAL or shared
    /// memory, its marker, the health log): refused, and the file is left byte for byte.
    case outputIsStore = 72
    /// The output named with `-o` is refused (a directory, a symlink or special file it must not replace).
    case outputRefused = 73
    /// Writing failed: standard output closed or full, the disk full, a session that could not be saved.
    case ioError = 74
    /// The store is locked by another process for too long; try again. Or another device process owns
    /// the data directory (its `chronoception.lock`): the message names its pid.
    case storeBusy = 75
    /// The database is damaged, belongs to another program, or was written by a newer Chronoception.
    /// It is left untouched.
    case storeUnusable = 76
    /// The data directory (or another path) cannot be written: permission, or a read-only file system.
    case permission = 77
    /// A board file or a stored setting is invalid.
    case badConfiguration = 78
    /// `sync`: the collector answered but will not take the batch: it is full, speaks another
    /// protocol version, refuses a session, or is not a collector at all.
    case collectorRefused = 79

    /// A session ended by a signal exits with 128 + the signal's number (130 for SIGINT, 143 for
    /// SIGTERM), as shells expect. `run` (the daemon) exits 0 on SIGTERM, SIGINT and SIGQUIT: being
    /// stopped is its normal end.
    public static func signal(_ number: Int32) -> Int32 { 128 + number }

    /// A short name for the table and for tests.
    public var name: String {
        switch self {
        case .success: return "success"
        case .checkFailed: return "check failed"
        case .notRunning: return "not running"
        case .collectorUnreachable: return "collector unreachable"
        case .usage: return "usage"
        case .badInput: return "bad input file"
        case .noInput: return "input missing"
        case .deviceUnavailable: return "device unavailable"
        case .internalError: return "internal error"
        case .outputIsStore: return "output is the store"
        case .outputRefused: return "output refused"
        case .ioError: return "write failed"
        case .storeBusy: return "store busy"
        case .storeUnusable: return "store unusable"
        case .permission: return "permission"
        case .badConfiguration: return "bad configuration"
        case .collectorRefused: return "collector refused"
        }
    }
}
