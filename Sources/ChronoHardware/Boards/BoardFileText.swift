import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a board file's text, telling apart what can go wrong: missing, unreadable, a directory, a
/// device or FIFO that is not a file, not UTF-8, empty (`/dev/null`), or too large to be a board file.
enum BoardFileText {
    /// Board files are a few hundred bytes; anything past this is not one (the parser's bound too).
    static let maximumBytes = BoardFileStructure.maximumBytes

    static func read(path: String) throws(BoardFileError) -> String {
        func failure(_ problem: String, _ fix: String) -> BoardFileError {
            BoardFileError(file: path, key: "", problem: problem, fix: fix)
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            throw code == ENOENT ? failure("does not exist", "check the path, or give a board name from `chronoception board list`")
                : failure("cannot be read (\(String(cString: strerror(code))))", "check that this user may read it")
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: throw failure("is a directory, not a board file", "give the path of a .yaml file inside it, or a board name")
        case S_IFREG: break
        case S_IFCHR where info.st_rdev == makedev(1, 3):
            throw failure("is empty (/dev/null)", "copy boards/desktop.yaml and edit it")
        default: throw failure("is a device or pipe, not a board file", "give the path of a .yaml file")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw failure("cannot be read (\(String(cString: strerror(errno))))", "check that this user may read it")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("cannot be read (\(String(cString: strerror(errno))))", "check the file and the storage it is on")
            }
            if count == 0 { break }
            bytes += chunk.prefix(count)
            if bytes.count > maximumBytes { throw failure("is larger than 64 KiB (\(maximumBytes) bytes); board files are a few hundred bytes", "give the right file, or start again from boards/desktop.yaml") }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw failure("is not UTF-8 text", "save it as UTF-8 (plain ASCII is fine)")
        }
        guard !text.contains("\0") else { throw failure("contains NUL bytes; it is not a text file", "give the right file") }
        return text
    }
}

/// `makedev` is a macro in glibc.
private func makedev(_ major: UInt32, _ minor: UInt32) -> dev_t {
    dev_t((UInt64(major) << 8) | UInt64(minor))
}
