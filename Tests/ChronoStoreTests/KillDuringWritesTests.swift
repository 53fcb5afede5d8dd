import ChronoCore
@testable import ChronoStore
import Foundation
import GRDB
import Testing

/// A real process killed with SIGKILL at random moments while it writes sessions: the database must
/// stay sound, finished sessions complete (all or nothing), cut-off sessions interrupted and never
/// logged, and no health record written twice.
@Suite("kill -9 during writes")
struct KillDuringWritesTests {
    /// The `chronoception` executable built beside this test bundle (`swift build` builds both), or
    /// `$CHRONOCEPTION_BINARY`.
    static var binary: String? {
        if let explicit = ProcessInfo.processInfo.environment["CHRONOCEPTION_BINARY"] { return explicit }
        let candidate = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("chronoception").path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    @Test("random SIGKILLs over many runs of `simulate --data-dir`")
    func randomKills() throws {
        guard let binary = Self.binary else {
            Issue.record("The chronoception executable is not built beside the tests; run `swift build` first or set CHRONOCEPTION_BINARY.")
            return
        }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var generator = SystemRandomNumberGenerator()
        var killed = 0
        for run in 0..<10 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            // Seeds repeat, so some runs also re-save sessions that are already stored.
            process.arguments = ["simulate", "--sessions", "3000", "--seed", String(run % 4 + 1), "--quiet", "--data-dir", directory.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32.random(in: 150_000...900_000, using: &generator))
            if process.isRunning { kill(process.processIdentifier, SIGKILL); killed += 1 }
            process.waitUntilExit()

            let store = try ChronoStore.openForTest(directory)
            _ = try store.recoverInterruptedSessions(nowUnixNanoseconds: Sample.now)
            #expect(try store.integrityCheck() == ["ok"], "run \(run)")
        }
        #expect(killed > 0)

        let store = try ChronoStore.openForTest(directory)
        try checkConsistency(store)
        _ = try store.backfill(nowUnixNanoseconds: Sample.now)
        let logged = try healthLogLines(store).map { line in
            try #require(try jsonObject(line)["metadata"] as? [String: Any])["HKMetadataKeySyncIdentifier"] as? String ?? ""
        }
        #expect(Set(logged).count == logged.count, "a record was written twice")
        let (eligible, neverLogged) = try store.read { db in
            (try String.fetchAll(db, sql: "SELECT session_id FROM health_ledger WHERE state = 'written'"),
             try String.fetchAll(db, sql: "SELECT id FROM session WHERE status != 'completed'"))
        }
        #expect(Set(logged) == Set(eligible), "the log and the ledger disagree")
        #expect(Set(logged).isDisjoint(with: neverLogged), "an aborted or interrupted session was logged")
        #expect(try store.healthLogStatus().owedTotal == 0)
    }

    /// Every finished session is whole: its attempts or boundaries all there, as its row says.
    func checkConsistency(_ store: ChronoStore) throws {
        let broken = try store.read { db in
            try String.fetchAll(db, sql: """
                SELECT s.id FROM session s
                WHERE s.status = 'running'
                   OR (s.status != 'running' AND s.mode != 'passive' AND s.attempt_count != (SELECT COUNT(*) FROM attempt a WHERE a.session_id = s.id)
                       AND s.status != 'interrupted')
                   OR (s.status = 'completed' AND s.mode = 'passive' AND s.done_count != (SELECT COUNT(*) FROM passive_boundary b WHERE b.session_id = s.id))
                   OR (s.status = 'completed' AND NOT EXISTS (SELECT 1 FROM health_ledger l WHERE l.session_id = s.id))
                """)
        }
        #expect(broken.isEmpty, "incomplete sessions: \(broken.prefix(5))")
        let completed = try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session WHERE status = 'completed'") ?? 0 }
        #expect(completed > 0)
    }
}
