import Glibc

/// The JSON Lines health log on disk. Each append opens the file with `O_APPEND`, writes the whole
/// line, `fsync`s and closes, so a completed session's record is durable when the call returns and
/// a half-written line never stays behind: on any failure the file is truncated back to its length
/// before the append. A missing directory is a failure (SPEC §4), not something to create: the user
/// chose the path, and creating it could hide a missing mount.
public struct HealthLogFile: HealthLogTarget {
    public let path: String

    public init(path: String) { self.path = path }

    public func append(line: String) throws(HealthLogWriteError) {
        let descriptor = try openForAppend()
        defer { close(descriptor) }
        let originalLength = lseek(descriptor, 0, SEEK_END)
        guard originalLength >= 0 else { throw failure("cannot seek in \(path)") }
        var bytes = Array(line.utf8)
        // An unfinished last line can only come from a crash mid-append before this design truncated
        // on failure; start a new line rather than glue this record onto it.
        if originalLength > 0, !endsWithNewline(descriptor, length: originalLength) { bytes.insert(10, at: 0) }
        bytes.append(10)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                let error = failure("cannot write \(path)")
                _ = ftruncate(descriptor, originalLength)
                throw error
            }
            written += count
        }
        guard fsync(descriptor) == 0 else {
            let error = failure("cannot flush \(path) to disk")
            _ = ftruncate(descriptor, originalLength)
            throw error
        }
    }

    public func existingSyncIdentifiers() throws(HealthLogWriteError) -> Set<String> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return [] }
            throw failure("cannot read \(path)")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw HealthLogWriteError("\(path) is not a regular file; set health-log-file to a file (`chronoception settings set health-log-file PATH`)")
        }
        var contents: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 65_536) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("cannot read \(path)")
            }
            if count == 0 { break }
            contents += buffer.prefix(count)
        }
        return Self.syncIdentifiers(in: String(decoding: contents, as: UTF8.self))
    }

    /// Every `"HKMetadataKeySyncIdentifier":"…"` value in the text, whatever else a line holds.
    static func syncIdentifiers(in text: String) -> Set<String> {
        let key = "\"HKMetadataKeySyncIdentifier\":\""
        var found: Set<String> = []
        for line in text.split(separator: "\n") {
            guard let range = line.firstRange(of: key) else { continue }
            let rest = line[range.upperBound...]
            if let end = rest.firstIndex(of: "\"") { found.insert(String(rest[..<end])) }
        }
        return found
    }

    /// Opens the log for appending: a new file is created 0600 whatever the umask (it holds the
    /// person's sessions); an existing one must be a regular file — a FIFO or a device would block a
    /// session's writer or swallow its records — and keeps the mode its owner gave it.
    private func openForAppend() throws(HealthLogWriteError) -> Int32 {
        let flags = O_RDWR | O_APPEND | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
        var descriptor = open(path, flags | O_CREAT | O_EXCL, 0o600)
        if descriptor >= 0 {
            _ = fchmod(descriptor, 0o600)
        } else if errno == EEXIST {
            descriptor = open(path, flags)
        }
        guard descriptor >= 0 else { throw failure("cannot open \(path)") }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw HealthLogWriteError("\(path) is not a regular file; set health-log-file to a file (`chronoception settings set health-log-file PATH`)")
        }
        _ = fcntl(descriptor, F_SETFL, O_APPEND)
        return descriptor
    }

    private func endsWithNewline(_ descriptor: Int32, length: off_t) -> Bool {
        var last: UInt8 = 0
        return pread(descriptor, &last, 1, length - 1) == 1 && last == 10
    }

    private func failure(_ action: String) -> HealthLogWriteError {
        HealthLogWriteError("\(action): \(String(cString: strerror(errno)))")
    }
}
