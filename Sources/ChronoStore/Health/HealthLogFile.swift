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
        let descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("cannot open \(path)") }
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
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return [] }
            throw failure("cannot read \(path)")
        }
        defer { close(descriptor) }
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

    private func endsWithNewline(_ descriptor: Int32, length: off_t) -> Bool {
        var last: UInt8 = 0
        return pread(descriptor, &last, 1, length - 1) == 1 && last == 10
    }

    private func failure(_ action: String) -> HealthLogWriteError {
        HealthLogWriteError("\(action): \(String(cString: strerror(errno)))")
    }
}
