import ChronoCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Files under one base folder (`--root` or `--boot` of `first-boot apply`) and never outside it:
/// each folder on the way is checked to resolve inside the base before anything is made in it (a
/// symbolic link on the way that leads out is refused), and a file is replaced by renaming a synced
/// temporary file over it, so a link in its place is replaced, not followed, and a power cut leaves
/// the old file or the new one — never half of one (the boot partition is FAT, the device a wearable).
/// Files are opened without following links and without blocking, and only regular files are read or
/// replaced: a FIFO, device, socket or folder where a file should be is refused at once, not waited on.
struct RootedFiles {
    /// The base as given (for messages) and as resolved.
    let base: String
    let resolvedBase: String

    /// Nil when `base` is not a folder.
    init?(_ base: String) {
        var status = stat()
        guard stat(base, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR, let real = Self.realPath(base) else { return nil }
        self.base = base
        resolvedBase = real
    }

    /// Where `relative` is, for messages: the base joined to it.
    func shown(_ relative: String) -> String {
        base == "/" ? "/" + relative : (base.hasSuffix("/") ? base : base + "/") + relative
    }

    /// The text of the regular file at `relative` (not through a link), nil when there is none.
    func read(_ relative: String) -> String? {
        readBytes(relative, limit: nil).map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    /// The bytes of the regular file at `relative` (not through a link), nil when there is none. With a
    /// `limit`, reading stops after `limit + 1` bytes and `complete` says whether the file ended within
    /// the limit (the first-boot file: `FirstBootFile.maximumBytes`).
    func readBytes(_ relative: String, limit: Int?) -> (bytes: [UInt8], complete: Bool)? {
        guard let parent = try? folder(of: relative, create: nil) else { return nil }
        let descriptor = open(parent + "/" + PathText.lastComponent(of: relative), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Self.readBounded(descriptor, limit: limit)
    }

    /// Reads `descriptor` to its end, or until more than `limit` bytes came (then `complete` is false).
    static func readBounded(_ descriptor: Int32, limit: Int?) -> (bytes: [UInt8], complete: Bool) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let wanted = limit.map { min(buffer.count, $0 + 1 - bytes.count) } ?? buffer.count
            if wanted <= 0 { return (bytes, false) }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, wanted) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        if let limit, bytes.count > limit { return (bytes, false) }
        return (bytes, true)
    }

    /// Whether something (a file, a link, a folder) is at `relative`.
    func exists(_ relative: String) -> Bool {
        guard let parent = try? folder(of: relative, create: nil) else { return false }
        var status = stat()
        return lstat(parent + "/" + PathText.lastComponent(of: relative), &status) == 0
    }

    /// The target of the symbolic link at `relative`, nil when it is none.
    func linkTarget(_ relative: String) -> String? {
        guard let parent = try? folder(of: relative, create: nil) else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(parent + "/" + PathText.lastComponent(of: relative), &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Replaces the file at `relative` with `text` (mode `mode`, unless nil: FAT has no modes),
    /// making missing folders with `folderMode`.
    func write(_ relative: String, _ text: String, mode: mode_t?, folderMode: mode_t = 0o755) throws(RootedFileError) {
        let parent = try folder(of: relative, create: folderMode)
        let name = PathText.lastComponent(of: relative)
        try refuseSpecialFile(parent + "/" + name, relative)
        var template = Array("\(parent)/.\(name).first-boot-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw failure(relative, errno) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }  // the array overload is deprecated
        var ok = true, code: Int32 = 0
        let bytes = Array(text.utf8)
        var written = 0
        while ok && written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 { if errno == EINTR { continue }; ok = false; code = errno } else { written += count }
        }
        if ok, let mode, fchmod(descriptor, mode) != 0 { ok = false; code = errno }
        if ok, fsync(descriptor) != 0 { ok = false; code = errno }
        close(descriptor)
        if ok, rename(temporary, parent + "/" + name) != 0 { ok = false; code = errno }
        guard ok else {
            unlink(temporary)
            throw failure(relative, code)
        }
        syncFolder(parent)
    }

    /// Makes `relative` a symbolic link to `target` (which may be absolute: it names a place on the
    /// device, and nothing is written there).
    func link(_ relative: String, to target: String) throws(RootedFileError) {
        let parent = try folder(of: relative, create: 0o755)
        let name = PathText.lastComponent(of: relative)
        try refuseSpecialFile(parent + "/" + name, relative)
        let temporary = "\(parent)/.\(name).first-boot-link"
        unlink(temporary)
        guard symlink(target, temporary) == 0 else { throw failure(relative, errno) }
        guard rename(temporary, parent + "/" + name) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure(relative, code)
        }
        syncFolder(parent)
    }

    /// Removes the file or link at `relative`; nothing there is fine.
    func remove(_ relative: String) throws(RootedFileError) {
        let parent = try folder(of: relative, create: nil)
        guard unlink(parent + "/" + PathText.lastComponent(of: relative)) == 0 || errno == ENOENT else { throw failure(relative, errno) }
        syncFolder(parent)
    }

    /// The resolved folder that holds `relative`, each step checked to stay inside the base; missing
    /// folders are made with `create`'s mode, or refused (ENOENT) when it is nil.
    private func folder(of relative: String, create: mode_t?) throws(RootedFileError) -> String {
        var current = resolvedBase
        let steps = relative.split(separator: "/").dropLast()
        for step in steps {
            guard step != "..", step != "." else { throw failure(relative, EINVAL) }
            let next = current + "/" + step
            var status = stat()
            if lstat(next, &status) != 0 {
                guard errno == ENOENT, let create else { throw failure(relative, errno) }
                guard mkdir(next, create) == 0 || errno == EEXIST else { throw failure(relative, errno) }
                _ = chmod(next, create)
            }
            guard let real = Self.realPath(next), real == resolvedBase || real.hasPrefix(resolvedBase == "/" ? "/" : resolvedBase + "/") else {
                throw RootedFileError(path: shown(relative), reason: "a folder on the way leads outside \(base); nothing was written there")
            }
            current = real
        }
        return current
    }

    /// Refuses to replace what is at `path` unless it is a regular file or a symbolic link (or nothing):
    /// a FIFO, device or socket there is someone else's, and a folder is not a file.
    private func refuseSpecialFile(_ path: String, _ relative: String) throws(RootedFileError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        let kind: String
        switch status.st_mode & S_IFMT {
        case S_IFREG, S_IFLNK: return
        case S_IFIFO: kind = "a FIFO (named pipe)"
        case S_IFDIR: kind = "a folder"
        case S_IFSOCK: kind = "a socket"
        case S_IFCHR, S_IFBLK: kind = "a device node"
        default: kind = "not a regular file"
        }
        throw RootedFileError(path: shown(relative), reason: "it is \(kind), not a regular file, so nothing was read or written there; remove it (it is no file of the system's) and apply again",
                              errno: EEXIST)
    }

    private func syncFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private func failure(_ relative: String, _ code: Int32) -> RootedFileError {
        RootedFileError(path: shown(relative), reason: String(cString: strerror(code)), errno: code)
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// A file under `--root` or `--boot` that could not be written: the path and the system's reason.
public struct RootedFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var errno: Int32 = 0

    /// A read-only file system or a permission refused (the fix is the same: run as root on a
    /// writable root), rather than a full or failing disk.
    public var isPermission: Bool { errno == EACCES || errno == EPERM || errno == EROFS }

    public var description: String { "cannot write \(TerminalSafeText.quoted(path, limit: 200)): \(reason)" }
}
