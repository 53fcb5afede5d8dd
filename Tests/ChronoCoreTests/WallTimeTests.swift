import Testing
@testable import ChronoCore

@Suite("Wall-clock dates without Foundation")
struct WallTimeTests {
    @Test("ISO 8601 with offset and milliseconds")
    func iso() {
        // 2026-11-23T08:20:17.123Z
        let utc = WallTime(unixNanoseconds: 1_795_422_017_123_456_789, utcOffsetSeconds: 0)
        #expect(utc.iso8601 == "2026-11-23T08:20:17.123+00:00")
        let plusOne = WallTime(unixNanoseconds: utc.unixNanoseconds, utcOffsetSeconds: 3600)
        #expect(plusOne.iso8601 == "2026-11-23T09:20:17.123+01:00")
        #expect(plusOne.appleHealthExportText == "2026-11-23 09:20:17 +0100")
        let minus = WallTime(unixNanoseconds: utc.unixNanoseconds, utcOffsetSeconds: -(5 * 3600 + 30 * 60))
        #expect(minus.iso8601 == "2026-11-23T02:50:17.123-05:30")
    }

    @Test("parses what it writes, and Apple's format")
    func parse() throws {
        let parsed = try #require(WallTime(parsing: "2026-11-23T09:20:17.123+01:00"))
        #expect(parsed.unixNanoseconds == 1_795_422_017_123_000_000)
        #expect(parsed.utcOffsetSeconds == 3600)
        #expect(WallTime(parsing: "2026-11-23T08:20:17Z")?.unixNanoseconds == 1_795_422_017_000_000_000)
        #expect(WallTime(parsing: "2026-11-23 09:20:17 +0100")?.unixNanoseconds == 1_795_422_017_000_000_000)
        #expect(WallTime(parsing: "2026-11-23T08:20:17") == nil)
        #expect(WallTime(parsing: "yesterday") == nil)
    }

    @Test("civil dates round-trip across eras and leap days")
    func civil() {
        for days: Int64 in [-719_468, -1, 0, 59, 60, 11_016, 20_415, 2_932_896] {
            #expect(CivilDate(daysSinceEpoch: days).daysSinceEpoch == days)
        }
        #expect(CivilDate(daysSinceEpoch: 0) == CivilDate(year: 1970, month: 1, day: 1))
        #expect(CivilDate(year: 2024, month: 2, day: 29).daysSinceEpoch + 1 == CivilDate(year: 2024, month: 3, day: 1).daysSinceEpoch)
        #expect(WallTime(unixNanoseconds: -1, utcOffsetSeconds: 0).iso8601 == "1969-12-31T23:59:59.999+00:00")
    }

    @Test("a wall-clock anchor maps monotonic marks, so a clock step changes nothing")
    func anchor() {
        let anchor = WallClockAnchor(unixNanoseconds: 1_795_422_000_000_000_000, monotonic: MonotonicInstant(nanoseconds: 5_000_000_000), utcOffsetSeconds: 0)
        #expect(anchor.wallTime(at: MonotonicInstant(nanoseconds: 65_000_000_000)).iso8601 == "2026-11-23T08:21:00.000+00:00")
    }
}
