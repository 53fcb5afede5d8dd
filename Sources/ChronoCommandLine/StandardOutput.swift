import ChronoCore
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Standard output as a checked destination. `print` buffers in C stdio; `finish()` flushes it at the
/// end of every command and turns a failed write (a full disk, `> /dev/full`, a closed descriptor)
/// into an `OutputError`, so no command reports success for output that was lost.
public enum StandardOutput {
    /// Makes sure descriptors 0, 1 and 2 are open before anything else opens a file: a file opened
    /// into a closed slot 1 would receive everything printed. A closed slot gets /dev/null opened
    /// read-only, so writes to it still fail (EBADF) and are reported.
    public static func guardDescriptors() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", O_RDONLY)
            if opened >= 0 && opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
    }

    /// Writes `text` through stdio (in order with `print`) and flushes it at once.
    public static func write(_ text: String, otherFailure: Int32 = 0) throws(OutputError) {
        var failure: Int32 = 0
        text.utf8CString.withUnsafeBufferPointer { buffer in
            let count = buffer.count - 1
            if count > 0, fwrite(buffer.baseAddress, 1, count, stdout) != count { failure = errno }
        }
        if failure != 0 { throw .writeFailed("to standard output", errno: failure, partialRemoved: false) }
        try flush(otherFailure: otherFailure)
    }

    /// Flushes stdio's buffer and reports any write that failed since the program started, also
    /// `otherFailure`: the errno of a write around stdio the program kept (0 when none; the device's
    /// is ChronoHardware's `ConsoleWriteFailure.first`).
    public static func flush(otherFailure: Int32 = 0) throws(OutputError) {
        if fflush(stdout) != 0 {
            throw .writeFailed("to standard output", errno: errno, partialRemoved: false)
        }
        if ferror(stdout) != 0 {
            throw .writeFailed("to standard output", errno: EIO, partialRemoved: false)
        }
        if otherFailure != 0 { throw .writeFailed("to standard output", errno: otherFailure, partialRemoved: false) }
    }
}

/// Writes one line to standard error; failures there cannot be reported anywhere and are ignored.
public func printError(_ line: String) {
    let text = TerminalSafeText.sanitized(line) + "\n"
    fflush(stdout)
    _ = text.withCString { fputs($0, stderr) }
    fflush(stderr)
}
