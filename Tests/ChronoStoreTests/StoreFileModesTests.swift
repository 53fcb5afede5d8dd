import ChronoCore
@testable import ChronoStore
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Secrets at rest: whatever existed before, an open for writing leaves the data directory 0700 and
/// the store's files 0600; links, FIFOs and devices where the store's files go are refused, untouched.
@Suite struct StoreFileModesTests {
    private func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    @Test func aNewStoreIsPrivateFromTheStart() throws {
        let parent = TemporaryDirectory()
        defer { parent.remove() }
        let location = StoreLocation(directory: parent.path + "/data")
        let store = try ChronoStore.open(location)
        try store.setSetting(.defaultInterval, to: "30s", nowUnixSeconds: 1_795_000_000)
        #expect(mode(location.directory) == 0o700)
        #expect(mode(location.databasePath) == 0o600)
        #expect(mode(location.databasePath + "-wal") == 0o600)
        #expect(mode(location.databasePath + "-shm") == 0o600)
        #expect(mode(PathText.directory(of: location.defaultHealthLogPath)) == 0o700)
    }

    /// As `first-boot apply` leaves /var/lib/chronoception (0755) and an older release its files (0644).
    @Test func aPreMadeOpenDirectoryAndItsFilesAreTightened() throws {
        let parent = TemporaryDirectory()
        defer { parent.remove() }
        let location = StoreLocation(directory: parent.path + "/data")
        do {
            let store = try ChronoStore.open(location)
            try store.setSetting(.defaultInterval, to: "30s", nowUnixSeconds: 1_795_000_000)
        }
        let healthLog = location.defaultHealthLogPath
        #expect(FileManager.default.createFile(atPath: healthLog, contents: Data()))
        let files = [location.databasePath, location.databasePath + "-wal", location.databasePath + "-shm", healthLog,
                     location.directory + "/" + DataDirectoryLock.fileName]
        #expect(FileManager.default.createFile(atPath: files[4], contents: Data()))
        for file in files where access(file, F_OK) == 0 { chmod(file, 0o644) }
        chmod(location.directory, 0o755)
        chmod(PathText.directory(of: healthLog), 0o755)

        _ = try ChronoStore.open(location)
        #expect(mode(location.directory) == 0o700)
        #expect(mode(PathText.directory(of: healthLog)) == 0o700)
        for file in files where access(file, F_OK) == 0 { #expect(mode(file) == 0o600, "\(file)") }
    }

    @Test func aNewHealthLogIsCreatedPrivate() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let log = HealthLogFile(path: directory.path + "/log.jsonl")
        try log.append(line: "{}")
        #expect(mode(log.path) == 0o600)
    }

    @Test(arguments: ["-wal", "-shm", ""])
    func aSymlinkAmongTheStoresFilesIsRefusedAndLeftAlone(suffix: String) throws {
        let parent = TemporaryDirectory()
        defer { parent.remove() }
        let location = StoreLocation(directory: parent.path + "/data")
        _ = try ChronoStore.open(location)
        let victim = parent.path + "/victim"
        #expect(FileManager.default.createFile(atPath: victim, contents: Data("keep".utf8)))
        chmod(victim, 0o644)
        let link = location.databasePath + suffix
        unlink(link)
        #expect(symlink(victim, link) == 0)
        #expect(throws: StoreError.self) { _ = try ChronoStore.open(location) }
        do { _ = try ChronoStore.open(location) } catch {
            #expect(String(describing: error).contains("symbolic link"))
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep")
        #expect(mode(victim) == 0o644)
    }

    /// A FIFO where the WAL goes would block SQLite for ever: refused at once.
    @Test func aFIFOAmongTheStoresFilesIsRefusedWithoutBlocking() throws {
        let parent = TemporaryDirectory()
        defer { parent.remove() }
        let location = StoreLocation(directory: parent.path + "/data")
        _ = try ChronoStore.open(location)
        unlink(location.databasePath + "-wal")
        #expect(mkfifo(location.databasePath + "-wal", 0o600) == 0)
        do {
            _ = try ChronoStore.open(location)
            Issue.record("a FIFO as the WAL was accepted")
        } catch {
            #expect(String(describing: error).contains("not a regular file"))
        }
    }

    @Test func aStickyDirectoryIsRefusedAsAStoreDirectory() throws {
        let parent = TemporaryDirectory()
        defer { parent.remove() }
        let shared = parent.path + "/shared"
        mkdir(shared, 0o777)
        chmod(shared, 0o1777)
        do {
            _ = try ChronoStore.open(StoreLocation(directory: shared))
            Issue.record("a sticky directory was taken as a store directory")
        } catch {
            #expect(String(describing: error).contains("shared with other users"))
        }
        #expect(mode(shared) == 0o1777)
    }
}
