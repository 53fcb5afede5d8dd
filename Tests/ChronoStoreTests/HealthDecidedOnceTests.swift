import ChronoTesting
import ChronoCore
@testable import ChronoStore
import Testing

/// Issue 23: a saved session's health record is decided once, from the session in hand, where it is
/// saved, and written as it is; the rows just written are not read back to decide again. Only a
/// session anchored while the wall clock was not synchronised takes the reading path.
@Suite("A saved session's health record is decided once")
struct HealthDecidedOnceTests {
    /// Makes every row read back differ from the session in hand: when the finishing transaction
    /// writes the ledger line, the stored board becomes "read back". A delivery that read the rows
    /// again (and decided again) would log that board.
    func markRowsReadBack(_ store: ChronoStore) throws {
        try store.write { db in
            try db.execute(sql: """
                CREATE TRIGGER read_back_marker AFTER INSERT ON health_ledger BEGIN
                    UPDATE session SET board = 'read back' WHERE id = NEW.session_id;
                END
                """)
        }
    }

    @Test("the log gets the record decided from the session in hand, byte for byte; the rows are not read back")
    func recordInHand() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try markRowsReadBack(store)
        let outcome = Sample.attempts(.fear, [61, 58.5])
        let expected = try #require(HealthRecordBuilder.decide(for: outcome, sessionID: sid("S1"), device: "pi4b", anchor: Sample.anchor).record)

        let result = try store.recordSessionFinished(Sample.finish(sid("S1"), outcome), nowUnixNanoseconds: Sample.now)
        #expect(result.health == .written)
        #expect(try healthLogLines(store) == [expected.jsonLine])
        // The rows did change under the transaction (so a read-back would have seen "read back").
        #expect(try store.session(id: sid("S1")).board == "read back")
        #expect(try store.session(id: sid("S1")).healthLedger?.state == .written)
    }

    @Test("a session started with its own running row: the same, with the start's clock state")
    func recordInHandAfterStart() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try markRowsReadBack(store)
        let outcome = Sample.passive(planned: 3, done: 3)
        try store.recordSessionStarted(SessionStartRecord(sessionID: sid("P1"), configuration: outcome.configuration, anchor: Sample.anchor,
                                                          board: "pi4b", soundAudible: true, wallClockSynchronised: true))
        var finish = Sample.finish(sid("P1"), outcome)
        finish.wallClockSynchronised = nil
        let expected = try #require(HealthRecordBuilder.decide(for: outcome, sessionID: sid("P1"), device: "pi4b", anchor: Sample.anchor).record)

        #expect(try store.recordSessionFinished(finish, nowUnixNanoseconds: Sample.now).health == .written)
        #expect(try healthLogLines(store) == [expected.jsonLine])
    }

    @Test("anchored while the clock was unsynchronised, synchronised by the end: the reading path writes corrected times at once")
    func unsynchronisedAnchorTakesReadingPath() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let trueWall: Int64 = 1_800_000_000_000_000_000
        let clock = FakeWallClock(synchronised: true, boot: ProcessIdentity.currentBootID,
                                  now: WallClockAnchor(unixNanoseconds: trueWall, monotonic: Sample.anchor.monotonic + .seconds(1000), utcOffsetSeconds: 0))
        let store = try ChronoStore.openForTest(directory, clock: clock)
        let outcome = Sample.attempts(.challenge, [60.25])
        let result = try store.recordSessionFinished(Sample.finish(sid("S1"), outcome, synchronised: false), nowUnixNanoseconds: Sample.now)
        #expect(result.health == .written)
        let corrected = WallClockAnchor(unixNanoseconds: trueWall - 1000 * 1_000_000_000, monotonic: Sample.anchor.monotonic, utcOffsetSeconds: 3600)
        let expected = try #require(HealthRecordBuilder.decide(for: outcome, sessionID: sid("S1"), device: "pi4b", anchor: corrected).record)
        #expect(try healthLogLines(store) == [expected.jsonLine])
    }

    @Test("logging off: the record decided at the save is owed, and backfill writes the same bytes")
    func owedThenBackfilled() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try store.setSetting(.healthLogging, to: "off", nowUnixSeconds: 1)
        let outcome = Sample.attempts(.challenge, [62])
        let result = try store.recordSessionFinished(Sample.finish(sid("S1"), outcome), nowUnixNanoseconds: Sample.now)
        guard case .owed = result.health else { Issue.record("\(result.health)"); return }
        #expect(try store.healthLogStatus().owed == ["logging_off": 1])
        try store.setSetting(.healthLogging, to: "on", nowUnixSeconds: 1)
        #expect(try store.backfill(nowUnixNanoseconds: Sample.now).written == 1)
        let expected = try #require(HealthRecordBuilder.decide(for: outcome, sessionID: sid("S1"), device: "pi4b", anchor: Sample.anchor).record)
        #expect(try healthLogLines(store) == [expected.jsonLine])
    }
}
