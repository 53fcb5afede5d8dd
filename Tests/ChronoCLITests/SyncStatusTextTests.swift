@testable import ChronoCLI
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
}
