import CLinuxSystem
import ChronoHardware
#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGINT, SIGTERM, SIGHUP and SIGQUIT into bytes on a pipe that the loop waits on (the
/// self-pipe trick), so a signal becomes an ordinary event handled on the loop thread: the session is
/// interrupted, the motor switched off, the terminal restored, the record written.
///
/// Why not `signalfd`: it only works if the signals are blocked in every thread, and the Swift runtime,
/// Foundation and Dispatch start threads of their own before `main` that we cannot mask. A handler
/// that only calls `write(2)` (async-signal-safe) works whichever thread the kernel picks.
/// A third stop signal ends the process at once (`_exit`): someone pressing Ctrl-C again and again
/// wants out even if the loop is stuck. The crash-safe restore of the terminal
/// lives with the terminal driver. With `reloadOnHangup` (the daemon), SIGHUP is a reload request:
/// it goes through the pipe too, but never counts towards the third signal, so no number of SIGHUPs
/// ends the process.
public final class SignalCatcher: Sendable {
    /// The signals that stop a session in order.
    public static let stopSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    let descriptor: Int32
    private let writeEnd: Int32

    /// Installs the handlers; call it on the thread that waits on `descriptor`. One catcher per process.
    public init(reloadOnHangup: Bool = false) throws(SystemCallError) {
        var ends: [Int32] = [-1, -1]
        guard chrono_pipe2(&ends, O_NONBLOCK | O_CLOEXEC) == 0 else { throw SystemCallError("pipe2") }
        descriptor = ends[0]
        writeEnd = ends[1]
        signalPipeWriteEnd = ends[1]
        signalsSeen = 0
        hangupReloads = reloadOnHangup
        for number in Self.stopSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = forwardSignalToPipe
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0  // no SA_RESTART: the loop's ppoll returns EINTR and looks at the pipe
            guard sigaction(number, &action, nil) == 0 else { throw SystemCallError("sigaction") }
        }
        // A closed stdout (a pager quit early) must not kill the process with the motor on.
        signal(SIGPIPE, SIG_IGN)
        // A parent may hand down a mask that blocks these (some launchers and test runners do): then the
        // handler would never run and SIGTERM would stay pending. Unblock them on this thread — the
        // loop thread — so the kernel always has a thread to deliver them to.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in Self.stopSignals { sigaddset(&unblock, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    deinit {
        retire()
        Glibc.close(descriptor)
        Glibc.close(writeEnd)
    }

    /// Detaches the handlers from the loop once it has stopped and everything is off. They stay
    /// installed: a stop signal arriving while the process finishes (draining the writer, printing the
    /// summary) still only counts towards the third, which restores the terminal and exits. Why not
    /// the previous actions: a second Ctrl-C a millisecond after the first would then meet the default
    /// action and kill the process by signal, against the documented exit status.
    public func retire() {
        signalPipeWriteEnd = -1
    }

    /// Readable when a signal has arrived: for a wait outside the loop to wake on (the daemon waiting
    /// for its button's input device).
    public var wakeDescriptor: Int32 { descriptor }

    /// The signal numbers received since the last call, oldest first.
    public func drain() -> [Int32] {
        var received: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 16)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            received += buffer.prefix(count).map { Int32($0) }
        }
        return received
    }
}

/// The pipe the handler writes to; -1 when no catcher is installed. Written only while no handler is
/// installed or before the handlers are (so the handler never sees a torn value).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1
/// How many stop signals arrived; the handler's only other state.
nonisolated(unsafe) private var signalsSeen: Int32 = 0
/// SIGHUP is a reload request (the daemon), not a stop; set before the handlers are installed.
nonisolated(unsafe) private var hangupReloads = false

/// The handler: async-signal-safe calls only (`write`, `_exit`).
private func forwardSignalToPipe(_ number: Int32) {
    let savedErrno = errno
    if !(number == SIGHUP && hangupReloads) { signalsSeen += 1 }
    if signalsSeen > 2 {
        // Third signal: the orderly path is not getting anywhere. The kernel releases the GPIO lines
        // with the process; the board's gate pull-down keeps the motor off. The terminal is put back
        // first (tcsetattr is async-signal-safe), or the shell is left without echo.
        TerminalMode.restoreFromSignalHandler()
        _exit(128 + number)
    }
    var byte = UInt8(truncatingIfNeeded: number)
    // After `retire()` there is no pipe (-1): the write fails harmlessly and the signal is only counted.
    if signalPipeWriteEnd >= 0 { _ = write(signalPipeWriteEnd, &byte, 1) }
    errno = savedErrno
}
