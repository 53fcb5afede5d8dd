import ChronoCore
#if canImport(Glibc)
import Glibc
#endif

/// Why output could not be written, worded for the person, with the exit status it earns.
public struct OutputError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public var status: ExitStatus

    public init(description: String, status: ExitStatus) {
        self.description = description
        self.status = status
    }

    /// A write to `what` failed with `errno`.
    public static func writeFailed(_ what: String, errno code: Int32, partialRemoved: Bool = true) -> OutputError {
        let reason = String(cString: strerror(code))
        let fix: String
        switch code {
        case ENOSPC, EDQUOT: fix = "free some space, or write somewhere else"
        case EBADF: fix = "standard output is closed; redirect it to a file or a pipe"
        case EPIPE: fix = "the reader went away before the output was complete"
        case EROFS: fix = "the file system is read-only; write somewhere else"
        case EACCES, EPERM: fix = "check the permissions, or write somewhere else"
        default: fix = "check the destination, or write somewhere else"
        }
        return OutputError(description: "Cannot write \(what): \(reason)\(partialRemoved ? ". Nothing partial was left behind" : ""); \(fix).",
                           status: code == EACCES || code == EPERM || code == EROFS ? .permission : .ioError)
    }

    /// `-o` names one of the store's own files: refused before anything is written.
    public static func storeFile(_ path: String, owner: String) -> OutputError {
        OutputError(description: "Will not write \(TerminalSafeText.quoted(path, limit: 200)): it is \(owner), and the export would replace it. The file was left as it was. Give a path outside the data directory's own files with -o.",
                    status: .outputIsStore)
    }

    public static func refused(_ path: String, because reason: String) -> OutputError {
        OutputError(description: "Will not write \(TerminalSafeText.quoted(path, limit: 200)): \(reason). Give a regular file's path with -o, or leave -o out to write to standard output.",
                    status: .outputRefused)
    }
}
