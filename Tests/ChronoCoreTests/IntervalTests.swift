import Testing
@testable import ChronoCore

@Suite("Intervals: parsing, validation and the display rule")
struct IntervalTests {
    @Test("accepts every input form of SPEC §1", arguments: [
        ("300", 300), ("300s", 300), ("5m", 300), ("5m0s", 300), ("5m 0s", 300), ("1m30s", 90),
        ("  45s ", 45), ("10", 10), ("120m 59s", 7259), ("1m 30", 90),
    ])
    func parses(text: String, seconds: Int) throws {
        #expect(try TrainingInterval.parse(text).seconds == seconds)
    }

    @Test("refuses text that is not an interval, with a message naming the fix", arguments: [
        "", "abc", "5x", "5m5m", "-5", "1.5m", "m", "5 s 3",
    ])
    func refusesMalformed(text: String) {
        #expect(throws: IntervalError.self) { try TrainingInterval.parse(text) }
    }

    @Test("refuses seconds past 59 after minutes")
    func refusesSecondsOverflow() {
        #expect(throws: IntervalError.secondsOutOfRange(text: "1m90s")) { try TrainingInterval.parse("1m90s") }
    }

    @Test("enforces 10 s to 120m 59s")
    func enforcesRange() throws {
        #expect(throws: IntervalError.tooShort(seconds: 9)) { try TrainingInterval.parse("9") }
        #expect(throws: IntervalError.tooLong(seconds: 7260)) { try TrainingInterval.parse("121m") }
        #expect(try TrainingInterval(seconds: 10).seconds == 10)
        #expect(try TrainingInterval(seconds: 7259).seconds == 7259)
        #expect(IntervalError.tooShort(seconds: 9).description == "9s is too short: intervals go from 10s to 120m 59s.")
        #expect(IntervalError.tooLong(seconds: 7260).description == "121m 0s is too long: intervals go from 10s to 120m 59s.")
    }

    @Test("display rule examples", arguments: [
        (45, "45s"), (65, "1m 5s"), (180, "3m 0s"), (630, "10m 30s"), (90, "1m 30s"), (0, "0s"), (59, "59s"), (60, "1m 0s"),
        (7259, "120m 59s"),
    ])
    func displays(seconds: Int, text: String) {
        #expect(DurationText.format(wholeSeconds: seconds) == text)
    }

    @Test("fractions round half away from zero for display only")
    func roundsFractions() {
        #expect(DurationText.format(seconds: 2.5) == "3s")
        #expect(DurationText.format(seconds: 2.49) == "2s")
        #expect(DurationText.format(seconds: 59.5) == "1m 0s")
        #expect(DurationText.format(magnitudeOf: .milliseconds(-3500)) == "4s")
    }

    @Test("the built-in preset is 5m 0s")
    func builtIn() {
        #expect(TrainingInterval.builtInPreset.description == "5m 0s")
    }

    @Test("test-only intervals are not product intervals")
    func testOnly() {
        let short = TrainingInterval.testOnly(milliseconds: 50)
        #expect(!short.isProductInterval)
        #expect(short.span == .milliseconds(50))
        #expect(short.description == "50ms")
    }
}
