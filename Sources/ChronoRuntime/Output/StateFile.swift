import ChronoCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where the state file lives and how it is replaced.
///
/// Default path: `$XDG_RUNTIME_DIR/chronoception/state.json` for a user session, otherwise
/// `/run/chronoception/state.json` (the service's `RuntimeDirectory=chronoception`), for the default
/// data directory; a process on another data directory (`--data-dir`) writes
/// `state-<16 hex digits>.json` there instead, named from that directory (`defaultPath(forDataDirectory:)`),
/// so it never replaces the daemon's file. Both are tmpfs: frequent small writes cost no SD-card wear,
/// and a reboot clears a stale file. The file records the data directory it describes (`data_dir`).
///
/// Replacement is atomic: the text goes to a temporary created exclusively in the same directory
/// (`mkstemp`: never an existing file or a planted link), which is then renamed over the old one, so
/// a reader sees the old file or the new one, never half of one. A state file that exists must be a
/// regular file: a symbolic link, a device (`/dev/null`) or a FIFO there is refused, never replaced.
public final class StateFile: Sendable {
    public let path: String
    /// The data directory this file describes, written into it as `data_dir`; nil: not recorded.
    public let dataDirectory: String?

    public init(path: String, dataDirectory: String? = nil) {
        self.path = path
        self.dataDirectory = dataDirectory
    }

    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/chronoception/state.json"
        }
        return "/run/chronoception/state.json"
    }

    /// The default path for a process on `dataDirectory`: `state.json` for nil (the default data
    /// directory), else `state-<hex>.json` beside it, the hex a 64-bit FNV-1a of the directory's path.
    public static func defaultPath(forDataDirectory dataDirectory: String?,
                                   environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let standard = defaultPath(environment: environment)
        guard let dataDirectory else { return standard }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in dataDirectory.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return PathText.directory(of: standard) + "/state-" + String(repeating: "0", count: 16 - hex.count) + hex + ".json"
    }

    /// Why `path` cannot be a state file, or nil when it can (absent, or a regular file).
    public static func refusal(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFLNK: return "it is a symbolic link"
        case S_IFDIR: return "it is a directory"
        default: return "it is not a regular file (a device, FIFO or socket)"
        }
    }

    /// Writes `text` atomically, creating the directory if needed.
    public func replace(with text: String) throws {
        let directory = PathText.directory(of: path)
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        if let refusal = Self.refusal(path) { throw StateFileRefused(path: path, reason: refusal) }
        var template = Array(((directory.isEmpty ? "." : directory) + "/." + PathText.lastComponent(of: path) + ".XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw SystemCallError("mkstemp in \(directory)") }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // mkstemp makes it 0600; the state file is for every local reader (a bar, `status`).
        var failure: SystemCallError? = fchmod(fd, 0o644) == 0 ? nil : SystemCallError("fchmod \(temporary)")
        let bytes = Array((text + "\n").utf8)
        var written = 0
        while failure == nil, written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                write(fd, buffer.baseAddress! + written, buffer.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                failure = SystemCallError("write \(temporary)")
            } else {
                written += result
            }
        }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 { failure = SystemCallError("rename \(temporary) to \(path)") }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    /// The current file's text, if there is one.
    public func read() -> String? {
        // Followed, but only to a regular file: a FIFO would block the reader.
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return try? String(contentsOfFile: path, encoding: .utf8)
    }
}

/// The state file's path holds something that is not a regular file: refused, never replaced.
public struct StateFileRefused: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        "The state file \(TerminalSafeText.quoted(path, limit: 200)) will not be written: \(reason). Give a file path with --state-file, or --no-state-file."
    }
}
