@testable import ChronoCLI
import ChronoCore
import ChronoStore
import ChronoTesting
import Foundation
import Testing

/// `status --format waybar` reads the store's last session when the device is stopped: a study
/// session whose results are withheld (here a sealed block, never revealed on the device) shows its
/// date and interval and no score, by the store's one rule (`withheldResultSessionIDs`).
@Suite struct WaybarStudyTests {
    @Test func aWithheldStudySessionShowsNoScoreOnTheBar() throws {
        var template = Array("/tmp/chrono-waybar-study-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try ChronoStore.open(StoreLocation(directory: directory))
        let now: Int64 = 1_795_000_000_000_000_000
        try store.keepStudyAssignment(StudyFixture.synced, nowUnixNanoseconds: now)
        let plan = StudyFixture.assignment.plan
        let target = try TrainingInterval(seconds: 10)
        let start = MonotonicInstant(nanoseconds: 1_000_000_000_000)
        let attempt = AttemptMeasurement(index: 1, target: target, startMark: start + .seconds(1), tapMark: start + .milliseconds(11_500))
        let configuration = try SessionConfiguration(mode: .challenge, interval: target, plannedCount: 1, feedback: .withheld)
        let outcome = SessionOutcome(status: .completed, configuration: configuration, startedAt: start, endedAt: start + .seconds(13),
                                     attempts: [attempt], boundaries: [], fearSoundEffective: false, reason: nil)
        var finish = SessionFinishRecord(sessionID: sid("SEALED"), outcome: outcome,
                                         anchor: WallClockAnchor(unixNanoseconds: now, monotonic: start, utcOffsetSeconds: 0),
                                         board: "desktop", wallClockSynchronised: true)
        finish.study = plan.tag(for: plan.sessions[4])
        _ = try store.recordSessionFinished(finish, nowUnixNanoseconds: now)

        let command = try StatusCommand.parse(["--data-dir", directory, "--format", "waybar"])
        let glance = command.storeGlance()
        #expect(glance.last?.resultsWithheld == true && glance.last?.timeAcuityScore == nil)
        #expect(WaybarStatus.line(stateFileText: nil, lastSession: glance.last, hideScores: glance.hideScores)
                == #"{"alt":"Stopped","class":"stopped","text":"⏱ 2026-11-18 10s","tooltip":"The device is not running.\nLast session: 2026-11-18 10s"}"#)
    }
}
