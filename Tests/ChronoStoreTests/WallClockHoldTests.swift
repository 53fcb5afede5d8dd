import ChronoTesting
import ChronoCore
@testable import ChronoStore
import Testing

@Suite("Records held back while the wall clock is not synchronised")
struct WallClockHoldTests {
    @Test("held while unsynchronised; written with corrected times once synchronised in the same boot")
    func heldThenCorrected() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let clock = FakeWallClock(synchronised: false, boot: ProcessIdentity.currentBootID)
        let store = try ChronoStore.openForTest(directory, clock: clock)
        let outcome = Sample.attempts(.challenge, [61, 59])
        let result = try store.recordSessionFinished(Sample.finish(sid("S1"), outcome, synchronised: false), nowUnixNanoseconds: Sample.now)
        #expect(result.health == .owed(code: "clock_unsynchronised", reason: HealthRecordAvailability.heldReason))
        #expect(try healthLogLines(store).isEmpty)
        #expect(try store.flushHeldRecords(nowUnixNanoseconds: Sample.now) == 0)

        // NTP sets the clock: 1000 s of monotonic time after the session's anchor, the true wall time is T.
        let trueWall: Int64 = 1_800_000_000_000_000_000
        clock.synchronised = true
        clock.now = WallClockAnchor(unixNanoseconds: trueWall, monotonic: Sample.anchor.monotonic + .seconds(1000), utcOffsetSeconds: 0)
        #expect(try store.flushHeldRecords(nowUnixNanoseconds: Sample.now) == 1)
        let line = try #require(try healthLogLines(store).first)
        let corrected = WallClockAnchor(unixNanoseconds: trueWall - 1000 * 1_000_000_000, monotonic: Sample.anchor.monotonic, utcOffsetSeconds: 3600)
        #expect(try jsonObject(line)["startDate"] as? String == corrected.wallTime(at: outcome.recordStart).iso8601)
        #expect(try jsonObject(line)["endDate"] as? String == corrected.wallTime(at: outcome.endedAt).iso8601)
        #expect(try store.flushHeldRecords(nowUnixNanoseconds: Sample.now) == 0)
    }

    @Test("after a restart the times cannot be corrected: skipped, never misleading")
    func otherBoot() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let clock = FakeWallClock(synchronised: false, boot: "boot-A")
        let store = try ChronoStore.openForTest(directory, clock: clock)
        _ = try store.recordSessionFinished(Sample.finish(sid("S1"), Sample.passive(planned: 1, done: 1), synchronised: false), nowUnixNanoseconds: Sample.now)
        clock.synchronised = true
        clock.boot = "boot-B"
        #expect(try store.flushHeldRecords(nowUnixNanoseconds: Sample.now) == 0)
        #expect(try store.session(id: sid("S1")).healthLedger?.state == .skipped)
        #expect(try healthLogLines(store).isEmpty)
    }

    @Test("wall-clock-check off trusts the anchor as it is")
    func checkOff() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory, clock: FakeWallClock(synchronised: false))
        try store.setSetting(.wallClockCheck, to: "off", nowUnixSeconds: 1)
        let result = try store.recordSessionFinished(Sample.finish(sid("S1"), Sample.attempts(.challenge, [60]), synchronised: false), nowUnixNanoseconds: Sample.now)
        #expect(result.health == .written)
    }
}
