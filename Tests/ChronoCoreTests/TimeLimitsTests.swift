import Testing
@testable import ChronoCore

/// Times at the edge of Int64 never trap: they are refused or give no health record.
@Suite struct TimeLimitsTests {
    @Test func datesPast2262ParseToNothingInsteadOfTrapping() {
        #expect(WallTime(parsing: "2300-01-01T00:00:00Z") == nil)
        #expect(WallTime(parsing: "9999-12-31T23:59:59+14:00") == nil)
        #expect(WallTime(parsing: "2099-12-31T23:59:59Z") != nil)
    }

    @Test func marksNearInt64MaxGiveNoHealthRecord() throws {
        let interval = try TrainingInterval(seconds: 10)
        let configuration = try SessionConfiguration(mode: .challenge, interval: interval, plannedCount: 1)
        let start = MonotonicInstant(nanoseconds: 7_400_000_000_000_000_000)
        let attempt = AttemptMeasurement(index: 1, target: interval, startMark: start, tapMark: start + .seconds(10))
        let outcome = SessionOutcome(status: .completed, configuration: configuration, startedAt: start, endedAt: start + .seconds(10),
                                     attempts: [attempt], boundaries: [], fearSoundEffective: false, reason: nil)
        let anchor = WallClockAnchor(unixNanoseconds: 1_795_000_000_000_000_000, monotonic: .zero, utcOffsetSeconds: 0)
        let decision = HealthRecordBuilder.decide(for: outcome, sessionID: "s", device: "d", anchor: anchor)
        #expect(decision.record == nil)
    }

    @Test func theCheckedWallTimeRefusesOverflowAndTheFarFuture() {
        let anchor = WallClockAnchor(unixNanoseconds: 1_795_000_000_000_000_000, monotonic: .zero, utcOffsetSeconds: 0)
        #expect(anchor.checkedUnixNanoseconds(at: MonotonicInstant(nanoseconds: .max)) == nil)
        #expect(anchor.checkedUnixNanoseconds(at: MonotonicInstant(nanoseconds: .min)) == nil)
        #expect(anchor.checkedUnixNanoseconds(at: MonotonicInstant(nanoseconds: 1_000)) == 1_795_000_000_000_001_000)
    }

    @Test func theLimitsLeaveRoomForEverySum() {
        let (sum, overflow) = (TimeLimits.endUnixSeconds * 1_000_000_000)
            .addingReportingOverflow(TimeLimits.maximumMonotonicNanoseconds + Int64(TrainingInterval.maximumSeconds) * 1_000_000_000 * 100)
        #expect(!overflow && sum > 0)
    }

    @Test func anAbsurdIntervalSaysTooLongWithoutAnAbsurdNumber() {
        do {
            _ = try TrainingInterval.parse("99999999999999999999")
            Issue.record("accepted")
        } catch {
            #expect(error.description.contains("far too long"))
            #expect(!error.description.contains("76861433640456465"))
        }
    }
}
