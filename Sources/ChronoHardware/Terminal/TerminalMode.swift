#if canImport(Glibc)
import Glibc
#endif

/// Puts the terminal in the mode the desktop button needs and guarantees it is put back.
///
/// The mode: no line buffering (`ICANON` off: each key arrives when pressed, not at Enter), no echo,
/// reads that never wait (`VMIN = 0`, `VTIME = 0`, instead of `O_NONBLOCK`, which would be shared with
/// the shell through the open file description and outlive us). Output processing stays on (`\n` still
/// starts a new line) and so does `ISIG`: Ctrl-C still sends SIGINT, which the runtime turns into an
/// orderly stop. Ctrl-Z is disabled: a session suspended mid-attempt would be measured wrong. Ctrl-S
/// (XON/XOFF flow control) is disabled: it would freeze output and with it the loop's pulse drawing.
///
/// Restoring: `restore()` (idempotent) on the normal path; an `atexit` hook for paths that call
/// `exit()`; and handlers for crash signals (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP — a Swift
/// runtime trap is SIGILL or SIGTRAP) that restore the saved settings with `tcsetattr` (async-signal-
/// safe), hand the signal on to whatever handled it before, and so crash exactly as they would have. SIGKILL cannot be caught: `stty sane`.
public final class TerminalMode {
    private let descriptor: Int32

    /// Switches `descriptor` to the button's mode. Returns nil when it is not a terminal (a pipe in a
    /// test, a service without one): nothing to change or restore then.
    public static func enter(descriptor: Int32 = STDIN_FILENO) throws(TerminalError) -> TerminalMode? {
        guard isatty(descriptor) == 1 else { return nil }
        var original = termios()
        guard tcgetattr(descriptor, &original) == 0 else { throw TerminalError("tcgetattr", errno: errno) }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        raw.c_lflag |= tcflag_t(ISIG)
        // Ctrl-S would stop the terminal's output, and a write to a stopped terminal blocks — the motor's
        // pulses are drawn from the loop thread, which must never block.
        raw.c_iflag &= ~tcflag_t(IXON)
        withUnsafeMutableBytes(of: &raw.c_cc) { controls in
            controls[Int(VMIN)] = 0
            controls[Int(VTIME)] = 0
            controls[Int(VSUSP)] = 0  // _POSIX_VDISABLE on Linux
        }
        savedDescriptor = descriptor
        savedSettings = original
        hasSavedSettings = true
        installRestoreHooks()
        guard tcsetattr(descriptor, TCSANOW, &raw) == 0 else {
            hasSavedSettings = false
            throw TerminalError("tcsetattr", errno: errno)
        }
        return TerminalMode(descriptor: descriptor)
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { restore() }

    /// Puts the saved settings back. Safe to call more than once.
    public func restore() {
        restoreSavedTerminalSettings()
    }

    /// Puts the saved settings back from inside a signal handler (only `tcsetattr`, which is
    /// async-signal-safe); does nothing when the terminal was never changed. For handlers that end the
    /// process at once, such as the runtime's third stop signal.
    public static func restoreFromSignalHandler() {
        restoreSavedTerminalSettings()
    }
}

/// A terminal call that failed.
public struct TerminalError: Error, Sendable, CustomStringConvertible {
    public var call: String
    public var errno: Int32

    public init(_ call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    public var description: String { "\(call) on the terminal failed: \(String(cString: strerror(errno)))" }
}

// Process-wide, because signal handlers and atexit hooks cannot capture context. Written before the
// hooks can run (hasSavedSettings is set last) and only read afterwards.
nonisolated(unsafe) private var savedDescriptor: Int32 = -1
nonisolated(unsafe) private var savedSettings = termios()
nonisolated(unsafe) private var hasSavedSettings = false
nonisolated(unsafe) private var hooksInstalled = false

private func restoreSavedTerminalSettings() {
    guard hasSavedSettings else { return }
    var settings = savedSettings
    _ = tcsetattr(savedDescriptor, TCSANOW, &settings)
}

private let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]
/// The actions that were installed before ours (the Swift runtime's backtracer, for one), indexed by
/// signal number; preallocated so the handler only reads memory.
nonisolated(unsafe) private let previousCrashActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)

/// Stop signals that arrive while no one else handles them (before the runtime's catcher is installed
/// or after it has put the previous actions back) would end the process with the terminal raw.
private let stopSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

private func installRestoreHooks() {
    guard !hooksInstalled else { return }
    hooksInstalled = true
    atexit { restoreSavedTerminalSettings() }
    for number in stopSignals {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil else { continue }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = restoreTerminalAndStop
        sigemptyset(&action.sa_mask)
        action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)  // 0x80000000: does not fit Int32 as a positive value
        _ = sigaction(number, &action, nil)
    }
    for number in crashSignals {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = restoreTerminalAndCrash
        sigemptyset(&action.sa_mask)
        action.sa_flags = Int32(SA_NODEFER)
        _ = sigaction(number, &action, previousCrashActions + Int(number))
    }
}

/// Restores the terminal and lets the stop signal do what it would have (SA_RESETHAND has already put
/// the default action back).
private func restoreTerminalAndStop(_ number: Int32) {
    restoreSavedTerminalSettings()
    raise(number)
}

/// Restores the terminal, puts the previous handler back and raises the signal again, so the process
/// crashes exactly as it would have (backtrace, core dump) — only with a sane terminal.
private func restoreTerminalAndCrash(_ number: Int32) {
    restoreSavedTerminalSettings()
    _ = sigaction(number, previousCrashActions + Int(number), nil)
    raise(number)
}
