import ChronoTesting
import ChronoCore
@testable import ChronoStore
import Foundation
import Glibc
import GRDB
import Testing

/// Damage the kernel never wrote — a bit that flips on an SD card — keeps the file's size and
/// modification time, so the marker that lets an open skip `quick_check` cannot see it by those; the
/// digest in the marker does, and the store refuses the file before anything writes to it.
@Suite("Bit rot: damage that keeps size and time is refused before any write")
struct BitRotTests {
    /// A closed store of 300 sessions, marked as a command leaves it. (The marker is written here,
    /// not through `refreshAll`, which would also mark the files other tests are damaging.)
    func markedStore(_ directory: TemporaryDirectory) throws -> String {
        do {
            let store = try ChronoStore.openForTest(directory)
            try store.importFinishedSessions((0..<300).map { Sample.finish(sid("R\($0)"), Sample.attempts(.challenge, [61, 62, 63])) }, nowUnixNanoseconds: Sample.now)
        }
        let path = StoreLocation(directory: directory.path).databasePath
        VerifiedMarker.write(try #require(VerifiedMarker.settledContents(path: path)), path: path)
        #expect(VerifiedMarker.compare(path: path).0 == .same)
        return path
    }

    /// The first page of `object` (a table or index), found with SQLite's dbstat through an
    /// immutable connection, which creates no -wal or -shm beside the file.
    func firstPage(of object: String, in path: String) throws -> Int {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: "file:\(path)?immutable=1", configuration: configuration)
        return try queue.read { db in
            try #require(try Int.fetchOne(db, sql: "SELECT min(pageno) FROM dbstat WHERE name = ? AND pagetype = 'leaf'", arguments: [object]))
        }
    }

    /// Flips one bit in place, 20 bytes before the end of `page` (inside its last cell), and puts the
    /// file's access and modification times back, as bit rot leaves them (`touch -r`).
    func flipBit(in path: String, page: Int) throws {
        var info = stat()
        #expect(stat(path, &info) == 0)
        let offset = off_t(page * 4096 - 20)
        let descriptor = open(path, O_RDWR)
        #expect(descriptor >= 0)
        var byte: UInt8 = 0
        #expect(pread(descriptor, &byte, 1, offset) == 1)
        byte ^= 0x10
        #expect(pwrite(descriptor, &byte, 1, offset) == 1)
        close(descriptor)
        var times = [info.st_atim, info.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }

    @Test("a flipped bit in an index page, a table page or an attempt page: refused as damage at open, every byte kept",
          arguments: ["session_by_start", "sqlite_autoindex_session_1", "session", "attempt"])
    func flippedBitIsRefused(object: String) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = try markedStore(directory)
        let page = try firstPage(of: object, in: path)
        try flipBit(in: path, page: page)
        let damaged = try Data(contentsOf: URL(fileURLWithPath: path))
        let marker = try Data(contentsOf: URL(fileURLWithPath: VerifiedMarker.markerPath(path)))
        #expect(VerifiedMarker.compare(path: path).0 == .damaged)
        var refusal: StoreError?
        do { _ = try ChronoStore.openForTest(directory) } catch { refusal = error as? StoreError }
        guard case .corrupt(let named, let detail) = try #require(refusal) else { Issue.record("\(String(describing: refusal))"); return }
        #expect(named == path)
        #expect(detail == DatabaseFileCheck.bitRotDetail)
        // Not counted as opened, so the end of the command writes no marker over the damage.
        #expect(!VerifiedMarker.wasOpened(path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == damaged)
        #expect(try Data(contentsOf: URL(fileURLWithPath: VerifiedMarker.markerPath(path))) == marker)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }

    @Test("the refusal names the damage and the fix on one line")
    func refusalMessage() {
        let text = StoreError.corrupt(path: "/home/pi/.local/share/chronoception/chronoception.sqlite", detail: DatabaseFileCheck.bitRotDetail).description
        #expect(text == "The database file /home/pi/.local/share/chronoception/chronoception.sqlite is damaged or is not an SQLite database (its bytes changed although its size and modification time did not: bit rot on the storage). It was left untouched. Move it aside (for example `mv /home/pi/.local/share/chronoception/chronoception.sqlite /home/pi/.local/share/chronoception/chronoception.sqlite.broken`) to start a new store, or restore it from a backup; --data-dir chooses another directory.")
    }

    @Test("an unchanged file opens on its digest, without quick_check; the marker then follows GRDB's write at open")
    func unchangedOpensOnDigest() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = try markedStore(directory)
        let marker = try #require(VerifiedMarker.read(path: path))
        #expect(VerifiedMarker.compare(path: path) == (.same, marker))
        do {
            let store = try ChronoStore.openForTest(directory)
            #expect(try store.sessionCount() == 300)
        }
        // Opening a pool writes (GRDB makes its WAL non-empty), so the file has a new time and the
        // marker is read anew; kept as it was when nothing changed.
        VerifiedMarker.refresh(path: path, openedWith: marker)
        let after = try #require(VerifiedMarker.read(path: path))
        #expect(after.key == VerifiedMarker.key(path: path))
        #expect(after.digest == FileDigest.of(path: path))
        VerifiedMarker.refresh(path: path, openedWith: after)
        #expect(VerifiedMarker.read(path: path) == after)
    }

    @Test("the store's own write gives the file a new time: checked by its pages, then marked anew")
    func ownWriteIsNotDamage() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = try markedStore(directory)
        let before = try #require(VerifiedMarker.read(path: path))
        do {
            let store = try ChronoStore.openForTest(directory)
            try store.importFinishedSessions([Sample.finish(sid("NEW"), Sample.attempts(.challenge, [61]))], nowUnixNanoseconds: Sample.now)
        }
        #expect(VerifiedMarker.compare(path: path).0 == .unknown)
        try DatabaseFileCheck.verify(path: path, knownMigrations: Set(StoreSchema.migrator.migrations))
        #expect(VerifiedMarker.wasOpened(path))
        VerifiedMarker.refresh(path: path, openedWith: nil)
        let after = try #require(VerifiedMarker.read(path: path))
        #expect(after != before)
        #expect(VerifiedMarker.compare(path: path).0 == .same)
    }

    @Test("a marker of the first format (no digest) is not trusted")
    func oldMarkerIsIgnored() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = try markedStore(directory)
        let key = try #require(VerifiedMarker.key(path: path))
        let old = "1" + key.dropFirst()
        #expect(FileManager.default.createFile(atPath: VerifiedMarker.markerPath(path), contents: Data(old.utf8)))
        #expect(VerifiedMarker.read(path: path) == nil)
        #expect(VerifiedMarker.compare(path: path).0 == .unknown)
    }

    @Test("no marker for a file whose whole-second time is under 2 s old; one for an older file")
    func wholeSecondTimesWait() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/file"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: 7, count: 5000)))
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var recent = [timespec(tv_sec: now.tv_sec, tv_nsec: 0), timespec(tv_sec: now.tv_sec, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &recent, 0) == 0)
        #expect(VerifiedMarker.settledContents(path: path) == nil)
        var old = [timespec(tv_sec: now.tv_sec - 10, tv_nsec: 0), timespec(tv_sec: now.tv_sec - 10, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &old, 0) == 0)
        let contents = try #require(VerifiedMarker.settledContents(path: path))
        #expect(contents.digest == FileDigest.of(bytes: [UInt8](repeating: 7, count: 5000)))
    }
}

@Suite("FileDigest")
struct FileDigestTests {
    @Test("every single flipped bit of a 1,000-byte buffer changes the digest")
    func everyBitFlipIsSeen() {
        var bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let original = FileDigest.of(bytes: bytes)
        var seen: Set<UInt64> = [original]
        for index in bytes.indices {
            for bit in 0..<8 {
                bytes[index] ^= 1 << bit
                seen.insert(FileDigest.of(bytes: bytes))
                bytes[index] ^= 1 << bit
            }
        }
        #expect(seen.count == 8001)
    }

    @Test("runs of zeros of every length from 0 to 96 bytes have different digests")
    func lengthsDiffer() {
        #expect(Set((0...96).map { FileDigest.of(bytes: [UInt8](repeating: 0, count: $0)) }).count == 97)
    }

    @Test("a file read in 1 MiB chunks has the digest of its bytes; a missing file has none")
    func fileMatchesBytes() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let bytes = (0..<(FileDigest.chunkSize + 77)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) }
        let path = directory.path + "/file"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        #expect(FileDigest.of(path: path) == FileDigest.of(bytes: bytes))
        #expect(FileDigest.of(path: directory.path + "/missing") == nil)
        #expect(FileDigest.of(bytes: []) == FileDigest.of(path: "/dev/null"))
    }
}
