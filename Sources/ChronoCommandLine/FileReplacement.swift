#if canImport(Glibc)
import Glibc
#endif

/// Replaces a file with new text the one safe way, for every output either program writes over a
/// path it was given (`export -o` on the device and the collector, the tidy export and its codebook):
/// a temporary created exclusively beside it (`mkstemp`: never an existing file, never a planted
/// link, mode 0600 until `mode` is set on it), written, `fsync`ed, renamed over the path, and the
/// directory `fsync`ed. A crash or a full disk leaves the old file or nothing — never a partial one,
/// never a write through someone else's link.
public enum FileReplacement {
    /// - Returns: 0, or the `errno` of the step that failed (the temporary is then removed).
    public static func replace(_ path: String, with text: String, mode: mode_t) -> Int32 {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(directory)/.\(name).tmp-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { return errno }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }  // the array overload is deprecated
        var failure: Int32 = 0
        if !writeAll(descriptor, text) { failure = errno }
        if failure == 0 && fchmod(descriptor, mode) != 0 { failure = errno }
        if failure == 0 && fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            return failure
        }
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
        return 0
    }

    /// Writes every byte, retrying short writes and EINTR; false with errno set on failure.
    public static func writeAll(_ descriptor: Int32, _ text: String) -> Bool {
        var bytes = Array(text.utf8)
        var offset = 0
        return bytes.withUnsafeMutableBytes { buffer -> Bool in
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                if written == 0 { errno = EIO; return false }
                offset += written
            }
            return true
        }
    }
}
