import ChronoCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where the state file lives and how it is replaced.
///
/// Default path: `$XDG_RUNTIME_DIR/chronoception/state.json` for a user session, otherwise
/// `/run/chronoception/state.json` (the service's `RuntimeDirectory=chronoception`). Both are tmpfs:
/// frequent small writes cost no SD-card wear, and a reboot clears a stale file.
///
/// Replacement is atomic: the text goes to a temporary file in the same directory, which is then
/// renamed over the old one, so a reader sees the old file or the new one, never half of one.
public final class StateFile: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/chronoception/state.json"
        }
        return "/run/chronoception/state.json"
    }

    /// Writes `text` atomically, creating the directory if needed.
    public func replace(with text: String) throws {
        let directory = PathText.directory(of: path)
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let temporary = "\(path).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SystemCallError("open \(temporary)") }
        var bytes = Array((text + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeMutableBytes { buffer in
                write(fd, buffer.baseAddress! + written, buffer.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                let failure = SystemCallError("write \(temporary)")
                close(fd)
                unlink(temporary)
                throw failure
            }
            written += result
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let failure = SystemCallError("rename \(temporary) to \(path)")
            unlink(temporary)
            throw failure
        }
        bytes.removeAll()
    }

    /// The current file's text, if there is one.
    public func read() -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }
}
