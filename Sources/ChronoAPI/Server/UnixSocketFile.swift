#if canImport(Glibc)
import Glibc
#endif

/// Gets a Unix socket's path ready to bind: creates its directory (mode 0700 when it has to make it:
/// the socket's own mode, 0660, then decides who may connect), removes a socket left by a process
/// that is gone, and refuses to take over one that still answers or a path that is not a socket.
/// Public for the collector's server, which listens the same way.
public enum UnixSocketFile {
    public static func prepare(_ path: String) throws(APIError) {
        guard path.utf8.count < 108 else {
            throw APIError(.internalServerError, "socket_path", "The socket path \(path) is too long for a Unix socket (107 bytes at most); choose a shorter one with --socket PATH.")
        }
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !directory.isEmpty { try makeDirectories(directory) }
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw APIError(.internalServerError, "socket_path", "\(path) exists and is not a socket; move it away or choose another path with --socket PATH.")
        }
        if answers(path) {
            throw APIError(.internalServerError, "socket_busy", "Another process is serving the API at \(path) (is `chronoception run` or `companion` already running?). Stop it, or choose another path with --socket PATH.")
        }
        unlink(path)
    }

    private static func makeDirectories(_ path: String) throws(APIError) {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o700) != 0 && errno != EEXIST {
                throw APIError(.internalServerError, "socket_path", "Cannot create \(partial) for the API socket: \(String(cString: strerror(errno))).")
            }
        }
    }

    /// Whether something accepts connections on the socket now.
    static func answers(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() where index < buffer.count - 1 { buffer[index] = byte }
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
    }
}
