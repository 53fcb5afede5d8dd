import ChronoCommandLine
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Notices changes to the store's database made by any process (`chronoception settings set` in a
/// shell, the companion, this daemon's own writes) and calls `onChange` on its own thread.
///
/// Why inotify: it costs nothing while nothing changes (the thread sleeps in `poll`), it sees another
/// process's commit at once (a WAL commit writes `chronoception.sqlite-wal`), and it needs no SQLite
/// call — unlike polling `PRAGMA data_version`, which must run on one fixed connection and wakes the
/// device on a timer. A change noticed here only prepares a new snapshot off the loop; the loop uses
/// it at its next idle moment, so a setting applies from the next session on.
final class DataDirectoryWatcher: @unchecked Sendable {
    private let inotify: Int32
    private let stopPipe: [Int32]
    private let thread: Thread

    /// Watches `directory` for writes to files whose names start with one of `prefixes` (the database's
    /// name; the update record's, `UpdateRecord.fileName`).
    init(directory: String, prefixes: [String], onChange: @escaping @Sendable () -> Void) throws {
        let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0 else { throw CommandFailure(message: "inotify_init1: \(String(cString: strerror(errno)))") }
        guard inotify_add_watch(inotify, directory, UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)) >= 0 else {
            let reason = String(cString: strerror(errno))
            close(inotify)
            throw CommandFailure(message: "Cannot watch \(directory) for setting changes: \(reason)")
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            close(inotify)
            throw CommandFailure(message: "pipe: \(String(cString: strerror(errno)))")
        }
        self.inotify = inotify
        stopPipe = ends
        let stopEnd = ends[0]
        thread = Thread {
            var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: stopEnd, events: Int16(POLLIN), revents: 0)]
            var buffer = [UInt8](repeating: 0, count: 4096)
            // Trailing refreshes still owed after the last relevant event, soonest first (ms of quiet).
            var trailing: [Int32] = []
            while true {
                let ready = poll(&descriptors, 2, trailing.first ?? -1)
                guard ready >= 0 || errno == EINTR else { return }
                if ready == 0, !trailing.isEmpty {
                    trailing.removeFirst()
                    onChange()
                    continue
                }
                if descriptors[1].revents != 0 { return }
                guard descriptors[0].revents != 0 else { continue }
                var relevant = false
                while true {
                    let count = read(inotify, &buffer, buffer.count)
                    guard count > 0 else { break }
                    relevant = relevant || Self.mentions(prefixes, in: buffer, count: count)
                }
                if relevant {
                    onChange()
                    trailing = Self.settleDelaysMilliseconds
                }
            }
        }
        thread.name = "chronoception store watcher"
        thread.start()
    }

    /// Quiet periods after the last write event at which the change is read again. Why: the event
    /// comes with the WAL write, but another connection sees the commit only once the committer has
    /// synced the WAL (`synchronous = FULL`; an SD card can take hundreds of milliseconds) and updated
    /// the WAL index, neither of which inotify reports. Reading again once things have been quiet
    /// for 0.3 s, then 2 s, catches the commit without a timer running while nothing changes.
    static let settleDelaysMilliseconds: [Int32] = [300, 1_700]

    /// Ends the watching thread (it finishes the change it is handling first).
    func stop() {
        var byte: UInt8 = 1
        _ = write(stopPipe[1], &byte, 1)
    }

    /// Whether any event in the buffer names a file starting with one of `prefixes`.
    private static func mentions(_ prefixes: [String], in buffer: [UInt8], count: Int) -> Bool {
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
            let nameLength = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
            let nameBytes = buffer[(offset + header)..<min(count, offset + header + nameLength)].prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self)
            if prefixes.contains(where: name.hasPrefix) { return true }
            offset += header + nameLength
        }
        return false
    }
}
