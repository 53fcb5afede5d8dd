import ChronoCollector
import Foundation
import Testing
import ChronoCommandLine
@testable import ChronoCollectorCLI

/// `chronoception-collector …` on bad input: one `error:` line and the documented exit status.
@Suite struct CollectorCommandTests {
    /// Runs the command on a Dispatch thread: its `runBlocking` waits on the calling thread, which must
    /// not be one of Swift concurrency's few cooperative threads (the command's own task needs them).
    static func run(_ arguments: [String]) async -> Int32 {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: ChronoceptionCollector.execute(arguments)) }
        }
    }

    static func directory() -> String {
        var template = Array("/tmp/chrono-collector-cli-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    @Test func anInvalidDatabaseURLIsAUsageError() async {
        #expect(await Self.run(["devices", "--database", "mysql://u@h/d"]) == ExitStatus.usage.rawValue)
        #expect(await Self.run(["devices", "--database", "postgres://h/d"]) == ExitStatus.usage.rawValue)
    }

    @Test func anUnreachableServerIsReportedAsUnavailable() async {
        // Port 1 on loopback: nothing listens there.
        #expect(await Self.run(["devices", "--database", "postgres://chrono@127.0.0.1:1/chronoception?sslmode=disable"])
                == ExitStatus.deviceUnavailable.rawValue)
    }

    @Test func unknownNamesAndBadValuesAreUsageErrors() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(await Self.run(["revoke", "nobody", "--data-dir", directory]) == ExitStatus.usage.rawValue)
        #expect(await Self.run(["preferences", "set", "nobody", "default-attempts", "3", "--data-dir", directory]) == ExitStatus.usage.rawValue)
        #expect(await Self.run(["preferences", "set", "nobody", "health-log-file", "/x", "--data-dir", directory]) == ExitStatus.usage.rawValue)
        #expect(await Self.run(["enrol", "P1", "--expires", "400d", "--data-dir", directory]) == ExitStatus.usage.rawValue)
        #expect(await Self.run(["enrol", "P1", "--data-dir", directory]) == ExitStatus.success.rawValue)
        // The name is now waiting for its device; a second code replaces the first.
        #expect(await Self.run(["enrol", "P1", "--data-dir", directory]) == ExitStatus.success.rawValue)
        #expect(await Self.run(["devices", "--data-dir", directory]) == ExitStatus.success.rawValue)
        #expect(await Self.run(["export", "csv", "-o", directory + "/all.csv", "--data-dir", directory]) == ExitStatus.success.rawValue)
        let csv = try String(contentsOfFile: directory + "/all.csv", encoding: .utf8)
        #expect(csv == CollectorCSV.columns.joined(separator: ",") + "\r\n")
        // A mistyped device or participant is refused, not exported as an empty file.
        #expect(await Self.run(["export", "csv", "--device", "nobody", "-o", directory + "/x.csv", "--data-dir", directory]) == ExitStatus.usage.rawValue)
        #expect(await Self.run(["export", "csv", "--participant", "nobody", "-o", directory + "/x.csv", "--data-dir", directory]) == ExitStatus.usage.rawValue)
        #expect(!FileManager.default.fileExists(atPath: directory + "/x.csv"))
    }

    @Test func readerKeysAreRevokedByIDOrName() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(await Self.run(["keys", "revoke", "nobody", "--data-dir", directory]) == ExitStatus.usage.rawValue)
        #expect(await Self.run(["keys", "add", "analysis", "--data-dir", directory]) == ExitStatus.success.rawValue)
        #expect(await Self.run(["keys", "revoke", "analysis", "--data-dir", directory]) == ExitStatus.success.rawValue)
        #expect(await Self.run(["keys", "revoke", "analysis", "--data-dir", directory]) == ExitStatus.usage.rawValue)
        let store = try SQLiteCollectorStore.open(directory: directory)
        let left = try await store.readerKeys()
        await store.close()
        #expect(left.isEmpty)
    }

    @Test func aDatabaseOfANewerSchemaIsLeftAlone() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(await Self.run(["devices", "--data-dir", directory]) == ExitStatus.success.rawValue)
        let path = directory + "/" + SQLiteCollectorStore.fileName
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('UPDATE schema_version SET version = 99'); c.commit()", path]
        try sqlite.run()
        sqlite.waitUntilExit()
        #expect(sqlite.terminationStatus == 0)
        #expect(await Self.run(["devices", "--data-dir", directory]) == ExitStatus.storeUnusable.rawValue)
    }
}
