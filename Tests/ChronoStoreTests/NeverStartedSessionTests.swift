import ChronoTesting
import ChronoCore
@testable import ChronoStore
import GRDB
import Testing

/// A session never started (`q` before the first press: the engine sets `endedBeforeFirstPress`)
/// records nothing: the `running` row its start wrote goes, with its preset use, so it is in no list,
/// no count and no preset's uses. A session that did start is kept, aborted or interrupted.
@Suite("Sessions never started record nothing")
struct NeverStartedSessionTests {
    static func rowCounts(_ store: ChronoStore) throws -> [String: Int] {
        try store.read { db in
            var counts: [String: Int] = [:]
            for table in ["session", "preset_use", "preset_use_tally", "session_tally", "health_ledger", "sync_outbox", "session_study", "attempt", "passive_boundary"] {
                counts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? -1
            }
            return counts
        }
    }

    static let empty = ["session": 0, "preset_use": 0, "preset_use_tally": 0, "session_tally": 0, "health_ledger": 0, "sync_outbox": 0,
                        "session_study": 0, "attempt": 0, "passive_boundary": 0]

    func start(_ id: String, _ configuration: SessionConfiguration) -> SessionStartRecord {
        SessionStartRecord(sessionID: id, configuration: configuration, anchor: Sample.anchor, board: "pi4b", soundAudible: true,
                           wallClockSynchronised: true)
    }

    @Test(arguments: [SessionStatus.interrupted, .aborted])
    func aChallengeEndedBeforeTheFirstPressLeavesNothing(status: SessionStatus) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        var outcome = Sample.attempts(.challenge, [], status: status)
        #expect(!outcome.recordsNothing)
        outcome.endedBeforeFirstPress = true
        #expect(outcome.recordsNothing)
        try store.recordSessionStarted(start(sid("Q1"), outcome.configuration))
        #expect(try Self.rowCounts(store)["session"] == 1 && Self.rowCounts(store)["preset_use"] == 1)

        let result = try store.recordSessionFinished(Sample.finish(sid("Q1"), outcome), nowUnixNanoseconds: Sample.now)
        #expect(result == SessionSaveResult(stored: false, health: .skipped(reason: ChronoStore.nothingRecordedReason)))
        #expect(try Self.rowCounts(store) == Self.empty)
        #expect(try store.recentSessions(limit: 10, nowUnixNanoseconds: Sample.now).isEmpty)
        // The preset is listed as if never used: the built-in 5m 0s with no use, nothing for 60 s.
        let presets = try store.rankedPresets(nowUnixSeconds: Sample.now / 1_000_000_000)
        #expect(presets.map(\.interval) == [.builtInPreset] && presets.map(\.useCount) == [0])
        let report = try store.progress(nowUnixNanoseconds: Sample.now, utcOffsetSeconds: 3600)
        #expect(report.isEmpty && report.recentSessions.isEmpty && report.abortedSessions == 0 && report.interruptedSessions == 0)
        #expect(try healthLogLines(store).isEmpty)
    }

    @Test func aPassiveSessionEndedBeforeItsFirstBoundaryIsKeptAborted() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        // A Passive session runs from its start: ended 20 s in, before its first boundary, it was started.
        let outcome = Sample.passive(planned: 5, done: 0, end: 20, status: .aborted)
        #expect(!outcome.recordsNothing)
        try store.recordSessionStarted(start(sid("P0"), outcome.configuration))
        #expect(try store.recordSessionFinished(Sample.finish(sid("P0"), outcome), nowUnixNanoseconds: Sample.now).stored)
        let counts = try Self.rowCounts(store)
        #expect(counts["session"] == 1 && counts["preset_use"] == 1)
        #expect(try store.session(id: sid("P0")).outcome.status == .aborted)
        #expect(try healthLogLines(store).isEmpty)
    }

    @Test func aSessionWithOneAttemptOrBoundaryIsKept() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        let challenge = Sample.attempts(.challenge, [61], status: .interrupted)
        let passive = Sample.passive(planned: 5, done: 1, end: 70, status: .completed)
        #expect(!challenge.recordsNothing && !passive.recordsNothing)
        try store.recordSessionStarted(start(sid("C1"), challenge.configuration))
        #expect(try store.recordSessionFinished(Sample.finish(sid("C1"), challenge), nowUnixNanoseconds: Sample.now).stored)
        #expect(try store.recordSessionFinished(Sample.finish(sid("P1"), passive), nowUnixNanoseconds: Sample.now).stored)
        let counts = try Self.rowCounts(store)
        #expect(counts["session"] == 2 && counts["preset_use"] == 2 && counts["attempt"] == 1 && counts["passive_boundary"] == 1)
        #expect(try store.rankedPresets(nowUnixSeconds: Sample.now / 1_000_000_000).first { $0.interval.seconds == 60 }?.useCount == 2)
    }

    @Test func aFinishedRowIsNeverRemoved() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        let completed = Sample.attempts(.challenge, [59])
        #expect(try store.recordSessionFinished(Sample.finish(sid("K1"), completed), nowUnixNanoseconds: Sample.now).stored)
        // The same id finishing again with nothing recorded (a repeated, wrong save) leaves the session.
        var nothing = Sample.attempts(.challenge, [], status: .aborted)
        nothing.endedBeforeFirstPress = true
        _ = try store.recordSessionFinished(Sample.finish(sid("K1"), nothing), nowUnixNanoseconds: Sample.now)
        #expect(try store.session(id: sid("K1")).outcome.status == .completed)
        #expect(try Self.rowCounts(store)["preset_use"] == 1)
    }

    @Test func importAddsNoSessionThatRecordedNothing() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        var nothing = Sample.attempts(.fear, [], status: .aborted)
        nothing.endedBeforeFirstPress = true
        let added = try store.importFinishedSessions([Sample.finish(sid("I0"), nothing),
                                                      Sample.finish(sid("I1"), Sample.attempts(.fear, [60.5]))], nowUnixNanoseconds: Sample.now)
        #expect(added == 1)
        #expect(try Self.rowCounts(store)["session"] == 1)
    }
}
