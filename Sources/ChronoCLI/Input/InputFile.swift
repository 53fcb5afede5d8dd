import ArgumentParser
import ChronoCommandLine
import ChronoCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads an input file the way a person expects any path to work: regular files, `/dev/null`, FIFOs
/// and process substitution (`<(cat edges)`, a `/dev/fd/N` pipe) alike, to the end, with a size limit.
/// A directory, a missing file or an unreadable one gets a message that says which.
enum InputFile {
    /// - Parameters:
    ///   - path: the file; nil reads standard input.
    ///   - what: how the input is named in messages ("The edge file 'x'").
    static func read(_ path: String?, what: String, limit: Int) throws -> [UInt8] {
        let descriptor: Int32
        if let path {
            descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
            guard descriptor >= 0 else {
                let code = errno
                let reason: String
                switch code {
                case ENOENT: reason = "does not exist; check the path"
                case EACCES, EPERM: reason = "cannot be read by this user; check its permissions"
                case ENOTDIR: reason = "is not reachable: part of its path is not a directory"
                default: reason = "cannot be opened (\(String(cString: strerror(code))))"
                }
                throw CommandFailure(message: "\(what) \(reason).", status: .noInput)
            }
        } else {
            descriptor = STDIN_FILENO
        }
        defer { if path != nil { close(descriptor) } }
        var info = stat()
        if fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            throw CommandFailure(message: "\(what) is a directory; give a file.", status: .noInput)
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CommandFailure(message: "\(what) could not be read: \(String(cString: strerror(errno))).", status: .noInput)
            }
            if count == 0 { break }
            bytes += chunk.prefix(count)
            if bytes.count > limit {
                throw CommandFailure(message: "\(what) is larger than \(limit >> 20) MiB; it is not an input this command takes.", status: .badInput)
            }
        }
        return bytes
    }
}

/// A session id given on the command line must be a UUID, as every stored session's is.
enum SessionIDText {
    static func validated(_ text: String, flag: String) throws -> String {
        guard text.count == 36, let uuid = UUID(uuidString: text) else {
            throw ValidationError("\(flag) \(TerminalSafeText.quoted(text)) is not a UUID: write 8-4-4-4-12 hexadecimal digits, for example 0F2B6C1E-5D7A-4C3B-9E8F-1A2B3C4D5E6F (or leave it out).")
        }
        _ = uuid
        return text
    }
}
