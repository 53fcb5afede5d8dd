import ChronoTesting
import ChronoCore
@testable import ChronoStore
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A store on a read-only file system (an SD card remounted read-only) is read, never written. Root
/// ignores permission bits, so the test uses a read-only bind mount, which needs root (CI runs as root).
@Suite("A store that cannot be written", .serialized, .enabled(if: getuid() == 0, "needs root for a read-only bind mount"))
struct ReadOnlyStoreTests {
    static func run(_ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/mount")
        process.arguments = arguments
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test("reads and exports work, writes say read-only, and no byte changes")
    func readsWorkWritesRefused() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.path + "/data"
        let mounted = directory.path + "/ro"
        try FileManager.default.createDirectory(atPath: mounted, withIntermediateDirectories: true)
        do {
            let store = try ChronoStore.open(StoreLocation(directory: data), clock: FakeWallClock(synchronised: true))
            try store.importFinishedSessions((0..<3).map { Sample.finish(sid("S\($0)"), Sample.attempts(.challenge, [61, 62])) }, nowUnixNanoseconds: Sample.now)
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: data + "/" + StoreLocation.databaseFileName))
        try #require(Self.run(["--bind", data, mounted]) == 0)
        defer { _ = umount2(mounted, Int32(MNT_DETACH)) }
        try #require(Self.run(["-o", "remount,ro,bind", mounted]) == 0)

        let store = try ChronoStore.open(StoreLocation(directory: mounted), clock: FakeWallClock(synchronised: true))
        #expect(store.readOnlyReason?.contains("read-only") == true)
        #expect(try store.recentSessions(limit: 10).count == 3)
        var csv = ""
        try store.exportCSV(days: nil, nowUnixNanoseconds: Sample.now) { csv += $0 }
        #expect(csv.split(whereSeparator: \.isNewline).count > 3)  // CSV lines end in CRLF
        #expect(try store.healthRecords().count == 3)
        var refusal: StoreError?
        do { _ = try store.setSetting(.defaultAttempts, to: "3", nowUnixSeconds: 0) } catch { refusal = error }
        guard case .readOnly = try #require(refusal) else { Issue.record("\(String(describing: refusal))"); return }
        #expect(try Data(contentsOf: URL(fileURLWithPath: data + "/" + StoreLocation.databaseFileName)) == before)
    }
}

/// A full disk: opening for writing fails (the WAL cannot be made), the store opens read-only instead.
@Suite("A store on a full disk", .serialized, .enabled(if: getuid() == 0, "needs root to mount a small tmpfs"))
struct FullDiskStoreTests {
    @Test("reads work, writes say the disk is full, nothing changes")
    func readsWorkOnAFullDisk() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try #require(ReadOnlyStoreTests.run(["-t", "tmpfs", "-o", "size=1m", "tmpfs", directory.path]) == 0)
        defer { _ = umount2(directory.path, Int32(MNT_DETACH)) }
        let data = directory.path + "/data"
        do {
            let store = try ChronoStore.open(StoreLocation(directory: data), clock: FakeWallClock(synchronised: true))
            try store.importFinishedSessions((0..<3).map { Sample.finish(sid("S\($0)"), Sample.attempts(.challenge, [61, 62])) }, nowUnixNanoseconds: Sample.now)
            try store.pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        }
        // The last connection closed: the WAL is gone, so opening for writing must create it.
        try? FileManager.default.removeItem(atPath: data + "/" + StoreLocation.databaseFileName + "-wal")
        try? FileManager.default.removeItem(atPath: data + "/" + StoreLocation.databaseFileName + "-shm")
        let before = try Data(contentsOf: URL(fileURLWithPath: data + "/" + StoreLocation.databaseFileName))
        FileManager.default.createFile(atPath: directory.path + "/fill", contents: nil)
        let fill = FileHandle(forWritingAtPath: directory.path + "/fill")!
        let block = Data(count: 4096)
        while (try? fill.write(contentsOf: block)) != nil {}
        try? fill.close()

        let store = try ChronoStore.open(StoreLocation(directory: data), clock: FakeWallClock(synchronised: true))
        #expect(store.readOnlyReason?.contains("full") == true)
        #expect(try store.recentSessions(limit: 10).count == 3)
        var refusal: StoreError?
        do { _ = try store.setSetting(.defaultAttempts, to: "3", nowUnixSeconds: 0) } catch { refusal = error }
        guard case .readOnly = try #require(refusal) else { Issue.record("\(String(describing: refusal))"); return }
        #expect(try Data(contentsOf: URL(fileURLWithPath: data + "/" + StoreLocation.databaseFileName)) == before)
    }
}
