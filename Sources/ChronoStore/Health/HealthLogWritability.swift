import Glibc

/// Whether the health log at a path could be appended to now, asked without writing anything: what
/// `health enable` checks before it says "on", so that a log nobody can write is said at once rather
/// than at the end of the next session. The append itself (`HealthLogFile`) stays the final judge.
public enum HealthLogWritability {
    /// Why `path` cannot take an append now, in words that follow "cannot be written: "; nil when it can.
    /// An existing file must be a regular file this process may open for writing; a missing one needs
    /// a folder that exists (it is never created: a missing folder may be a missing mount) and that
    /// this process may write in.
    public static func problem(path: String) -> String? {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFREG else { return "it is not a regular file" }
            let descriptor = open(path, O_WRONLY | O_APPEND | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            guard descriptor >= 0 else { return reason() }
            close(descriptor)
            return nil
        }
        // ENOTDIR: a component of the folder's path is a file; the folder's own check below says which.
        guard errno == ENOENT || errno == ENOTDIR else { return reason() }
        let folder = parent(of: path)
        guard stat(folder, &info) == 0 else {
            return errno == ENOENT ? "its folder \(folder) does not exist (it is not created for you)" : "its folder \(folder): \(reason())"
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return "\(folder) is not a folder" }
        guard access(folder, W_OK | X_OK) == 0 else { return "its folder \(folder) cannot be written in: \(reason())" }
        return nil
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
