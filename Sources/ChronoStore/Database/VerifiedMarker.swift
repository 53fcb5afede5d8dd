import Foundation
import Glibc
import Synchronization

/// Remembers that the database passed `quick_check`, as a small file beside it
/// (`.chronoception.sqlite.verified`): the files' identity, size and modification time (the database
/// and its `-wal`) and a digest of every byte of the database (`FileDigest`).
///
/// The next open that finds the same size and time reads the file once and compares the digest
/// instead of running `quick_check` — cheaper (docs/FAULTS.md has the figures), and it sees what size
/// and time cannot: a bit that flipped on the card (the kernel never wrote, so nothing changed the
/// time). A different digest under the same size and time is damage, and the store is refused before
/// anything writes. Any write by anyone gives the file a new time, so the next open checks the pages.
///
/// The marker is written when the command that checked (or trusted) the file ends and has closed the
/// store, so it covers this process's own writes. Best effort: without a marker, every open checks.
enum VerifiedMarker {
    /// What the marker holds: the files' key and the database's digest.
    struct Contents: Equatable {
        let key: String
        let digest: UInt64

        var text: String { key + " " + String(digest, radix: 16) }

        init(key: String, digest: UInt64) {
            self.key = key
            self.digest = digest
        }

        init?(text: String) {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard trimmed.hasPrefix(VerifiedMarker.version + " "), let space = trimmed.lastIndex(of: " "),
                  let digest = UInt64(trimmed[trimmed.index(after: space)...], radix: 16) else { return nil }
            self.init(key: String(trimmed[..<space]), digest: digest)
        }
    }

    /// What comparing a file with its marker found.
    enum Comparison: Equatable {
        /// Every byte as the marker says: no need for `quick_check`.
        case same
        /// Size and time as the marker says, bytes not: damage on the storage.
        case damaged
        /// The marker does not apply (none, another file, another write since): check the pages.
        case unknown
    }

    /// The marker format; older markers (version 1 had no digest) do not apply, so the first open
    /// after an upgrade checks the pages once and writes a new one.
    static let version = "2"

    /// For each database this process opened: the marker that applied when it did, if one did.
    private static let verified = Mutex<[String: Contents?]>([:])

    /// The file at `path` passed the check in this process; `marker` is the marker that let it skip
    /// `quick_check` (nil when the pages were checked).
    static func opened(_ path: String, marker: Contents?) {
        verified.withLock { $0[path] = .some(marker) }
    }

    /// Whether this process opened the file at `path` after checking it.
    static func wasOpened(_ path: String) -> Bool { verified.withLock { $0[path] != nil } }

    /// Writes the marker for every database this process verified; call after the stores are closed.
    static func refreshAll() {
        for (path, marker) in verified.withLock({ $0 }) { refresh(path: path, openedWith: marker) }
    }

    /// Writes the marker for one database: kept when the files are as they were when opened with
    /// it, otherwise the files are read again for a new digest.
    static func refresh(path: String, openedWith marker: Contents?) {
        if let marker, key(path: path) == marker.key { return }
        if let contents = settledContents(path: path) { write(contents, path: path) }
    }

    /// Compares the file with its marker (reads every byte when size and time match).
    static func compare(path: String) -> (Comparison, Contents?) {
        guard let marker = read(path: path), let before = key(path: path), before == marker.key else { return (.unknown, nil) }
        guard let digest = FileDigest.of(path: path) else { return (.unknown, nil) }
        if digest == marker.digest { return (.same, marker) }
        // Written by another process while it was read (a daemon's checkpoint): not damage, check the pages.
        guard key(path: path) == before else { return (.unknown, nil) }
        return (.damaged, nil)
    }

    /// A marker for the file as it is now, or nil when none can be trusted. The digest is read only
    /// once the kernel's coarse clock (which stamps file times) has moved past the file's time, so
    /// that any write from then on gives the file a new time; and the key is taken again afterwards,
    /// so a write while reading means no marker (the next open checks the pages). On a file system
    /// that keeps whole seconds (a 128-byte-inode ext4, FAT) a file written in the last two seconds
    /// gets no marker, for the same reason.
    static func settledContents(path: String) -> Contents? {
        for _ in 0..<50 {
            guard let (before, modified) = keyAndTime(path: path) else { return nil }
            var now = timespec()
            clock_gettime(CLOCK_REALTIME_COARSE, &now)
            if modified.tv_nsec == 0 && now.tv_sec < modified.tv_sec + 2 { return nil }
            guard (now.tv_sec, now.tv_nsec) > (modified.tv_sec, modified.tv_nsec) else {
                usleep(1000)  // within the clock's current tick: a write now would keep the time
                continue
            }
            guard let digest = FileDigest.of(path: path), key(path: path) == before else { return nil }
            return Contents(key: before, digest: digest)
        }
        return nil
    }

    static func markerPath(_ path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return directory + "/." + name + ".verified"
    }

    /// Device, inode, size and modification time of the database and its `-wal`.
    static func key(path: String) -> String? { keyAndTime(path: path)?.0 }

    /// The key, and the database's modification time from the same `stat`.
    static func keyAndTime(path: String) -> (String, timespec)? {
        func describe(_ info: stat) -> String {
            "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        }
        var database = stat()
        guard stat(path, &database) == 0 else { return nil }
        var wal = stat()
        let walText = stat(path + "-wal", &wal) == 0 ? describe(wal) : "no-wal"
        return (version + " " + describe(database) + " " + walText, database.st_mtim)
    }

    static func read(path: String) -> Contents? {
        guard let data = FileManager.default.contents(atPath: markerPath(path)), data.count < 512,
              let text = String(data: data, encoding: .utf8) else { return nil }
        return Contents(text: text)
    }

    /// Replaces the marker through a temporary made exclusively beside it (`mkstemp`: 0600, never an
    /// existing file or a planted link), then renamed over it.
    static func write(_ contents: Contents, path: String) {
        let marker = markerPath(path)
        var template = Array((marker + ".tmp-XXXXXX").utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { return }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let bytes = Array(contents.text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        if written != bytes.count || rename(temporary, marker) != 0 { unlink(temporary) }
    }
}
