import ChronoCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The one owner of a data directory: an exclusive `flock(2)` on `chronoception.lock` in it, taken
/// by a device process that writes sessions live (`run`, `challenge`, `passive`, `fear`) before it
/// opens the store, and held for the life of the process. The kernel drops it when the process ends,
/// however it ends (`kill -9` and a power cut included), so a free lock means nobody is writing
/// sessions here: crash detection asks the lock, never a process id that may be a zombie or reused.
///
/// The holder writes its pid and command line into the file, so a second process that is refused can
/// name who has the directory. The descriptor is opened once, at start, with `O_CLOEXEC` (a program
/// the device starts does not inherit the lock), and is never needed again.
public final class DataDirectoryLock: Sendable {
    public static let fileName = "chronoception.lock"

    /// Who holds a lock, as the holder wrote it into the file (either may be missing: a holder that
    /// has just taken the lock and not yet written, or a file someone else wrote).
    public struct Holder: Equatable, Sendable {
        public var pid: Int32?
        public var command: String?

        public init(pid: Int32?, command: String?) {
            self.pid = pid
            self.command = command
        }

        /// Whether the holder is the device daemon (`chronoception run`), which takes sessions through
        /// its control verbs.
        public var isDaemon: Bool {
            guard let command else { return false }
            return command.split(separator: " ").dropFirst().first == "run"
        }
    }

    /// Why the lock was not taken.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// Another live process holds it.
        case held(directory: String, by: Holder)
        /// The lock file cannot be used: not a regular file, a symlink, or not writable (`errno`).
        case unusable(path: String, reason: String, errno: Int32)

        public var description: String {
            switch self {
            case .held(let directory, let holder):
                let who = holder.pid.map { "pid \($0)" } ?? "a process that has not written its pid yet"
                let command = holder.command.map { " (\(TerminalSafeText.sanitized(String($0.prefix(120)), keepNewlines: false)))" } ?? ""
                let stop = holder.pid.map { "`kill \($0)`" } ?? "`kill` it"
                let fix = holder.isDaemon
                    ? "Stop it first (`systemctl stop chronoception` for the service, `systemctl --user stop chronoception` for a user unit, or \(stop)), or start a session through it with `chronoception start` (`chronoception start --mode passive --interval 2m --count 6`)."
                    : "Wait for its session to end, or stop it (\(stop)); or choose another data directory with --data-dir."
                return "The data directory \(TerminalSafeText.sanitized(directory, keepNewlines: false)) is in use by another Chronoception process, \(who)\(command): one device process owns a data directory. \(fix)"
            case .unusable(let path, let reason, _):
                return "Cannot use the data directory's lock file \(TerminalSafeText.sanitized(path, keepNewlines: false)): \(reason). Move it aside, or choose another data directory with --data-dir."
            }
        }
    }

    /// The directory this lock owns.
    public let directory: String
    private let descriptor: Int32
    private let identity: DirectoryIdentity
    private let released = Mutex(false)

    private init(directory: String, descriptor: Int32, identity: DirectoryIdentity) {
        self.directory = directory
        self.descriptor = descriptor
        self.identity = identity
    }

    /// Takes the lock on `location`'s directory (which must exist), writing this process's pid and
    /// `command` into the file.
    ///
    /// - Parameter attempts: tries, 5 ms apart, before a held lock is refused (a holder that is
    ///   just ending, or one just starting while another gives up). The wait is the only one here and
    ///   happens at start, before any session.
    public static func acquire(in location: StoreLocation, command: String, attempts: Int = 20) throws(Failure) -> DataDirectoryLock {
        let path = location.directory + "/" + fileName
        let descriptor = try openLockFile(path)
        var identity = stat()
        guard stat(location.directory, &identity) == 0 else {
            let code = errno
            close(descriptor)
            throw .unusable(path: path, reason: "its directory cannot be read: \(String(cString: strerror(code)))", errno: code)
        }
        var tries = 0
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            tries += 1
            guard code == EWOULDBLOCK, tries < max(1, attempts) else {
                let holder = code == EWOULDBLOCK ? readHolder(descriptor) : nil
                close(descriptor)
                if let holder { throw .held(directory: location.directory, by: holder) }
                throw .unusable(path: path, reason: String(cString: strerror(code)), errno: code)
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
            nanosleep(&pause, nil)
        }
        let text = "pid \(getpid())\ncommand \(command.replacing("\n", with: " "))\n"
        _ = ftruncate(descriptor, 0)
        _ = Array(text.utf8).withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        let lock = DataDirectoryLock(directory: location.directory, descriptor: descriptor,
                                     identity: DirectoryIdentity(identity))
        held.withLock { $0.append(lock.identity) }
        return lock
    }

    /// Gives the lock up (tests; a device process keeps it until it ends).
    public func release() {
        let first = released.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        Self.held.withLock { list in
            if let index = list.firstIndex(of: identity) { list.remove(at: index) }
        }
        close(descriptor)
    }

    /// Whether this process holds the lock of `directory`: then no other process writes sessions
    /// there, and every `running` row another process left is an interrupted one.
    public static func isHeldByThisProcess(directory: String) -> Bool {
        var info = stat()
        guard stat(directory, &info) == 0 else { return false }
        let identity = DirectoryIdentity(info)
        return held.withLock { $0.contains(identity) }
    }

    /// The directories this process holds, by device and inode (a path may name one in several ways).
    private static let held = Mutex<[DirectoryIdentity]>([])

    private struct DirectoryIdentity: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// Opens (creating 0600) the lock file: never through a symlink, never a FIFO or device, and made
    /// private when it is this user's and others could read it.
    private static func openLockFile(_ path: String) throws(Failure) -> Int32 {
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            let reason = code == ELOOP ? "it is a symbolic link" : String(cString: strerror(code))
            throw .unusable(path: path, reason: reason, errno: code)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw .unusable(path: path, reason: "it is not a regular file", errno: EINVAL)
        }
        if info.st_mode & 0o7777 != 0o600, info.st_uid == geteuid() || geteuid() == 0 {
            _ = fchmod(descriptor, 0o600)
        }
        return descriptor
    }

    /// The holder as written in the file, read a few times while it is still empty (a holder that
    /// has just taken the lock writes next).
    private static func readHolder(_ descriptor: Int32) -> Holder {
        var holder = Holder(pid: nil, command: nil)
        for _ in 0..<10 {
            holder = parseHolder(readText(descriptor))
            if holder.pid != nil { return holder }
            var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
            nanosleep(&pause, nil)
        }
        return holder
    }

    private static func readText(_ descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 1024, 0) }
        return count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : ""
    }

    /// The file's text as the holder wrote it (`pid N`, `command …`); anything else is ignored: the
    /// file is outside the process, and a pid out of range is no pid.
    static func parseHolder(_ text: String) -> Holder {
        var holder = Holder(pid: nil, command: nil)
        for line in text.split(separator: "\n").prefix(4) {
            if line.hasPrefix("pid "), let pid = Int32(line.dropFirst(4)), pid > 0 { holder.pid = pid }
            if line.hasPrefix("command ") { holder.command = String(line.dropFirst(8).prefix(300)) }
        }
        return holder
    }
}
