import ChronoCore
@testable import ChronoStore
import Foundation
import Testing

/// No output and no setting may end up at one of the store's own files, however the path is spelt.
@Suite("The store's own files")
struct StoreOwnedFilesTests {
    @Test("the database, its companions, marker and health log are found directly, through symlinks, hard links and ..")
    func found() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.open(StoreLocation(directory: directory.path))
        let database = directory.path + "/chronoception.sqlite"
        let owned = try store.ownedFiles()
        #expect(owned.owner(of: database) == "the database (\(database))")
        #expect(owned.owner(of: directory.path + "/../" + PathText.lastComponent(of: directory.path) + "/chronoception.sqlite")
                == "the database (\(database))")
        #expect(owned.owner(of: database + "-wal") == "the database's wal file (\(database)-wal)")
        #expect(owned.owner(of: database + "-shm") != nil)
        #expect(owned.owner(of: directory.path + "/.chronoception.sqlite.verified") != nil)
        #expect(owned.owner(of: directory.path + "/health-log/mindful-sessions.jsonl")?.hasPrefix("the health log") == true)
        let elsewhere = TemporaryDirectory()
        defer { elsewhere.remove() }
        try FileManager.default.createSymbolicLink(atPath: elsewhere.path + "/export.csv", withDestinationPath: database)
        #expect(owned.owner(of: elsewhere.path + "/export.csv") == "the database (\(database))")
        try FileManager.default.createSymbolicLink(atPath: elsewhere.path + "/data", withDestinationPath: directory.path)
        #expect(owned.owner(of: elsewhere.path + "/data/chronoception.sqlite-wal") != nil)
        #expect(link(database, elsewhere.path + "/hard.csv") == 0)
        #expect(owned.owner(of: elsewhere.path + "/hard.csv") == "the database (\(database))")
    }

    @Test("other paths, in the data directory or beside it, are not the store's")
    func notFound() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let owned = try ChronoStore.open(StoreLocation(directory: directory.path)).ownedFiles()
        for path in [directory.path + "/sessions.csv", directory.path + "/chronoception.sqlite.csv", "/tmp/export.csv",
                     directory.path + "/missing-directory/chronoception.sqlite", ""] {
            #expect(owned.owner(of: path) == nil, "\(path)")
        }
    }

    @Test("health-log-file cannot name the database or its companions; the store is not appended to")
    func healthLogSetting() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.open(StoreLocation(directory: directory.path))
        let database = directory.path + "/chronoception.sqlite"
        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        for path in [database, database + "-wal", directory.path + "/./chronoception.sqlite"] {
            #expect(throws: StoreError.self) { try store.setSetting(.healthLogFile, to: path, nowUnixSeconds: 1) }
        }
        do { try store.setSetting(.healthLogFile, to: database, nowUnixSeconds: 1) } catch {
            #expect(error.description.hasPrefix("health-log-file cannot be the database (\(database)): the log would be written into the store."))
        }
        #expect(try store.settings().healthLogPath == directory.path + "/health-log/mindful-sessions.jsonl")
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)).count >= before.count)
    }
}
