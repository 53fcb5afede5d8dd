import ChronoCommandLine
import ChronoCore
import ChronoHardware
import ChronoStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a command's output to the path given with `-o`, without ever damaging what is there:
///
/// - a regular file (new or existing) is written to a temporary file beside it, synced, then renamed
///   over it, so a full disk or a crash leaves the old file or nothing — never a partial one;
/// - a symbolic link to a regular file: the same, at the link's target (the link stays a link);
/// - the file standard output already is (`-o /dev/stdout`): written to standard output;
/// - a device, FIFO or socket (`/dev/full`, `<(…)`): opened and written in place, never replaced;
/// - a directory or a dangling link: refused.
enum OutputFile {
    static func write(_ text: String, to path: String) throws(OutputError) {
        var target = stat()
        if stat(path, &target) != 0 {
            let code = errno
            var link = stat()
            if lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK {
                throw .refused(path, because: "it is a symbolic link to something that does not exist")
            }
            guard code == ENOENT else { throw .writeFailed(TerminalSafeText.quoted(path, limit: 200), errno: code) }
            try replace(path, with: text, mode: 0o644)
            return
        }
        var output = stat()
        if fstat(STDOUT_FILENO, &output) == 0 && output.st_dev == target.st_dev && output.st_ino == target.st_ino {
            try StandardOutput.write(text, otherFailure: ConsoleWriteFailure.first)
            return
        }
        switch target.st_mode & S_IFMT {
        case S_IFREG:
            var link = stat()
            var destination = path
            if lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK {
                guard let resolved = realpath(path, nil) else { throw .writeFailed(TerminalSafeText.quoted(path, limit: 200), errno: errno) }
                destination = String(cString: resolved)
                free(resolved)
            }
            try replace(destination, with: text, mode: target.st_mode & 0o7777)
        case S_IFDIR:
            throw .refused(path, because: "it is a directory")
        default:
            try writeInPlace(path, text)
        }
    }

    /// Temporary file in the same directory, fsync, rename, fsync the directory (`FileReplacement`).
    private static func replace(_ path: String, with text: String, mode: mode_t) throws(OutputError) {
        let failure = FileReplacement.replace(path, with: text, mode: mode)
        if failure != 0 { throw .writeFailed(TerminalSafeText.quoted(path, limit: 200), errno: failure) }
    }

    private static func writeInPlace(_ path: String, _ text: String) throws(OutputError) {
        let shown = TerminalSafeText.quoted(path, limit: 200)
        // Non-blocking to open: a FIFO nobody reads would otherwise hang the command for ever. ENXIO
        // says nobody reads it yet; a reader that is starting (`-o >(gzip > f)`) gets two seconds to
        // open its end. The writes then block as usual.
        var descriptor = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
        for _ in 0..<200 where descriptor < 0 && errno == ENXIO {
            usleep(10_000)
            descriptor = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
        }
        guard descriptor >= 0 else {
            if errno == ENXIO { throw .refused(path, because: "it is a FIFO (or socket) that no process is reading") }
            throw .writeFailed(shown, errno: errno)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        var failure: Int32 = 0
        if !writeAll(descriptor, text) { failure = errno }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        if failure != 0 { throw .writeFailed(shown, errno: failure, partialRemoved: false) }
    }

    /// Writes every byte, retrying short writes and EINTR; false with errno set on failure.
    static func writeAll(_ descriptor: Int32, _ text: String) -> Bool { FileReplacement.writeAll(descriptor, text) }
}

/// Writes a command's text to `-o PATH`, or to standard output without `-o`.
public func writeOutput(_ text: String, to path: String?, protecting store: StoreOwnedFiles? = nil) throws {
    guard let path else { return try StandardOutput.write(text, otherFailure: ConsoleWriteFailure.first) }
    if let store, let owner = store.owner(of: path) {
        throw OutputError.storeFile(path, owner: owner)
    }
    try OutputFile.write(text, to: path)
}
