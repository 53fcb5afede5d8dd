@testable import ChronoStore
import Testing

/// `sync status`'s lines, word for word: what is pending (one session, not "1 sessions"), the
/// collector, the last success in local time, and the device.
@Suite struct SyncStatusTextTests {
    static let device = "4cfd42f3-728b-4541-9f52-dda8aa4c35c1"

    @Test func notEnrolledWithOnePendingSession() {
        let state = SyncState(deviceID: Self.device, enrolment: nil, cursor: 0, pending: 1, consecutiveFailures: 0)
        #expect(SyncStatusText.lines(state, offsetAt: { _ in 0 }) == [
            "not enrolled: run `chronoception sync add http://HOST:PORT --code CODE` (the code comes from `chronoception-collector enrol NAME`)",
            "pending: 1 session (sent after enrolment)",
            "device: \(Self.device)",
        ])
    }

    @Test func enrolledWithSeveralPendingAndNoSuccessYet() {
        let state = SyncState(deviceID: Self.device,
                              enrolment: SyncEnrolment(collectorURL: "http://192.168.1.20:8738", deviceKey: "k", collectorID: "c", deviceName: "anna-pi", enrolledUnixNanoseconds: 0),
                              cursor: 0, pending: 12, consecutiveFailures: 0)
        #expect(SyncStatusText.lines(state, offsetAt: { _ in 0 }) == [
            "collector: http://192.168.1.20:8738 as 'anna-pi'",
            "pending: 12 sessions",
            "last success: never",
            "device: \(Self.device)",
        ])
    }

    static let enrolment = SyncEnrolment(collectorURL: "http://127.0.0.1:8738", deviceKey: "k", collectorID: "c", deviceName: "anna-pi",
                                         enrolledUnixNanoseconds: 1_000_000_000_000_000_000)
    static let hour: Int64 = 3_600_000_000_000

    /// Two failures after a success: the failure's line carries its time, the count and the stored words.
    static var failing: SyncState {
        var state = SyncState(deviceID: device, enrolment: enrolment, cursor: 4, pending: 2, consecutiveFailures: 2)
        state.lastSuccessUnixNanoseconds = enrolment.enrolledUnixNanoseconds + hour
        state.lastAttemptUnixNanoseconds = enrolment.enrolledUnixNanoseconds + 3 * hour
        state.lastFailureCode = "no_route"
        state.lastFailureMessage = "sync: cannot connect to the collector at 127.0.0.1:8738 (connection refused); check the collector is running and reachable from here (sessions stay pending and are sent when it is)."
        return state
    }

    @Test func failingAfterASuccessNamesTheTimeTheCountAndTheReason() {
        #expect(SyncStatusText.lines(Self.failing, offsetAt: { _ in 3600 }) == [
            "collector: http://127.0.0.1:8738 as 'anna-pi'",
            "pending: 2 sessions",
            "last success: 2001-09-09T03:46:40.000+01:00",
            "failing (2001-09-09T05:46:40.000+01:00, 2 failures in a row): cannot connect to the collector at 127.0.0.1:8738 (connection refused); check the collector is running and reachable from here (sessions stay pending and are sent when it is).",
            "device: \(Self.device)",
        ])
        // The page's lines are the same words with its own time text.
        let report = SyncStatusText.report(Self.failing) { _ in "T" }
        #expect(report.map(\.label) == ["collector", "pending", "last success", "failing (T, 2 failures in a row)", "device"])
        #expect("sync: " + report[3].text == Self.failing.lastFailureMessage)
    }

    @Test func attentionOnlyAfterADayOfFailures() {
        let success = Self.failing.lastSuccessUnixNanoseconds!
        let day = SyncStatusText.attentionAfterNanoseconds
        #expect(SyncStatusText.attention(Self.failing, nowUnixNanoseconds: success + day) == nil)
        #expect(SyncStatusText.attention(Self.failing, nowUnixNanoseconds: success + day + 1)
                == "Sessions have not reached the collector for more than a day (2 sessions waiting). See Sync in Settings.")
        var healthy = Self.failing
        healthy.consecutiveFailures = 0
        #expect(SyncStatusText.attention(healthy, nowUnixNanoseconds: success + 10 * day) == nil)
        // Never a success: counted from the enrolment.
        var never = Self.failing
        never.lastSuccessUnixNanoseconds = nil
        #expect(SyncStatusText.attention(never, nowUnixNanoseconds: Self.enrolment.enrolledUnixNanoseconds + day + 1) != nil)
        // Not enrolled: nothing is owed to a collector.
        let alone = SyncState(deviceID: Self.device, enrolment: nil, cursor: 0, pending: 9, consecutiveFailures: 3)
        #expect(SyncStatusText.attention(alone, nowUnixNanoseconds: .max) == nil)
        #expect(SyncStatusText.attention(alone, copied: true, nowUnixNanoseconds: 0)
                == "Sync is stopped: this data directory seems copied from another machine. See Sync in Settings.")
    }
}
