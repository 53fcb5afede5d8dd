import ChronoCore
#if canImport(Glibc)
import Glibc
#endif

/// Secrets at rest: the store holds sessions and the sync bearer key, so its directory is 0700 and
/// its files 0600 whatever existed before (`first-boot apply` and systemd's `StateDirectory=` make
/// `/var/lib/chronoception` 0755; an older release made its files 0644). Checked at every open for
/// writing, before SQLite touches a file:
///
/// - `checkTypes`: each file the store writes in the directory (the database, `-wal`, `-shm`,
///   `-journal`, the verified-marker, the lock, the default health log and its folder) is what it
///   should be or absent: never a symbolic link, a FIFO or a device, which are refused with the fix,
///   since SQLite or the health log would otherwise write through them or block on them;
/// - `tighten`: what this user owns (or root, anything) is made private; what it cannot change is
///   refused, naming the `chown`/`chmod` that fixes it.
///
/// New files are created private from the start (`createDatabaseFile`; SQLite gives `-wal` and
/// `-shm` the database file's mode), never 0644 and then changed.
enum StoreFileModes {
    static let directoryMode: mode_t = 0o700
    static let fileMode: mode_t = 0o600

    /// The store's own files in `location`, with the kind each must be.
    static func ownedPaths(_ location: StoreLocation) -> [(path: String, directory: Bool)] {
        let database = location.databasePath
        var paths: [(String, Bool)] = [(database, false)]
        for suffix in ["-wal", "-shm", "-journal"] { paths.append((database + suffix, false)) }
        paths.append((VerifiedMarker.markerPath(database), false))
        paths.append((location.directory + "/" + DataDirectoryLock.fileName, false))
        paths.append((PathText.directory(of: location.defaultHealthLogPath), true))
        paths.append((location.defaultHealthLogPath, false))
        return paths
    }

    /// Refuses a store file that is a symbolic link or not a regular file (a folder for the health
    /// log's folder). Changes nothing.
    static func checkTypes(_ location: StoreLocation) throws(StoreError) {
        for (path, isDirectory) in ownedPaths(location) {
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            let kind = info.st_mode & S_IFMT
            if kind == S_IFLNK {
                throw .directoryUnusable(path: location.directory, reason: "\(shown(path)) is a symbolic link; the store's files must be its own, in the data directory. Move the link aside")
            }
            if kind != (isDirectory ? S_IFDIR : S_IFREG) {
                throw .directoryUnusable(path: location.directory, reason: "\(shown(path)) is not a \(isDirectory ? "directory" : "regular file"); move it aside")
            }
        }
    }

    /// Makes the directory 0700 and the store's files 0600 (folders 0700), or refuses naming the fix.
    /// The directory itself is left as it is when it is shared by nature — `/`, a sticky directory
    /// such as `/tmp` (refused: a store of its own is needed), or the home directory — since its mode
    /// is not the store's to decide; the files in it are private all the same.
    static func tighten(_ location: StoreLocation, environment home: String?) throws(StoreError) {
        let directory = location.directory
        var info = stat()
        guard stat(directory, &info) == 0 else { return }
        if info.st_mode & S_ISVTX != 0 || realPath(directory) == "/" {
            throw .directoryUnusable(path: directory, reason: "it is shared with other users (\(realPath(directory) == "/" ? "the root directory" : "a sticky directory such as /tmp")), and the store keeps sessions and keys. Choose a directory of its own, for example \(directory == "/" ? "" : directory)/chronoception")
        }
        if realPath(directory) != home.flatMap(realPath) {
            try makePrivate(directory, info: info, mode: directoryMode, what: "the data directory", location: location)
        }
        for (path, isDirectory) in ownedPaths(location) {
            guard lstat(path, &info) == 0 else { continue }
            try makePrivate(path, info: info, mode: isDirectory ? directoryMode : fileMode, what: shown(path), location: location)
        }
    }

    /// Creates the database file, empty and 0600 whatever the umask, when there is none: SQLite then
    /// opens it (an empty file is a new database) and makes its `-wal` and `-shm` with the same mode.
    static func createDatabaseFile(_ location: StoreLocation) throws(StoreError) {
        let descriptor = open(location.databasePath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else {
            if errno == EEXIST { return }
            throw .directoryUnusable(path: location.directory, reason: "cannot create \(shown(location.databasePath)): \(String(cString: strerror(errno)))")
        }
        _ = fchmod(descriptor, fileMode)
        close(descriptor)
    }

    /// Whether any group or other permission bit is set.
    static func isShared(_ mode: mode_t) -> Bool { mode & 0o077 != 0 }

    private static func makePrivate(_ path: String, info: stat, mode: mode_t, what: String, location: StoreLocation) throws(StoreError) {
        guard isShared(info.st_mode) else { return }
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        var code: Int32 = 0
        if descriptor < 0 {
            code = errno
        } else {
            var opened = stat()
            // The same file that was looked at, not something put there since.
            if fstat(descriptor, &opened) != 0 || opened.st_ino != info.st_ino || opened.st_dev != info.st_dev {
                code = EAGAIN
            } else if fchmod(descriptor, mode) != 0 {
                code = errno
            }
            close(descriptor)
        }
        guard code != 0 else { return }
        let octal = String(info.st_mode & 0o7777, radix: 8)
        let fix = geteuid() == info.st_uid
            ? "`chmod \(String(mode, radix: 8)) \(shown(path))`"
            : "`sudo chown \(geteuid()) \(shown(path))` then `chmod \(String(mode, radix: 8)) \(shown(path))`, or run as its owner (uid \(info.st_uid))"
        throw .directoryUnusable(path: location.directory, reason: "\(what) can be read by other users (mode \(octal)) and this user cannot make it private (\(String(cString: strerror(code)))): it keeps sessions and keys. Fix: \(fix)")
    }

    private static func realPath(_ path: String) -> String? {
        guard let real = Glibc.realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    private static func shown(_ path: String) -> String { TerminalSafeText.quoted(path, limit: 200) }
}
