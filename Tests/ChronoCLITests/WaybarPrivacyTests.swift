import ChronoCore
import Foundation
import Testing
@testable import ChronoCLI

/// `status --format waybar` with `glanceable-privacy` off and on, byte for byte: on, neither the
/// state file's feedback and score nor the store's last score reach the bar.
@Suite struct WaybarPrivacyTests {
    /// A running device's state file (this process's pid, so it counts as running) right after an attempt.
    static func stateFile(privacy: Bool?) -> String {
        let member = privacy.map { #","glanceable_privacy":\#($0)"# } ?? ""
        return #"{"version":3,"state":"FeedbackFlash","board":"desktop","mode":"challenge","interval":"30s","attempt":2,"attempt_count":5,"health":"on","last_feedback":"Late by 3s · yellow","last_session":{"date":"2026-11-24","interval":"30s","time_acuity_score":81}"#
            + member + #","pid":\#(getpid())}"#
    }

    static let storeSession = ProgressReport.SessionLine(
        sessionID: "S", mode: .challenge, interval: try! TrainingInterval(seconds: 45), status: "completed",
        startedAt: WallTime(unixNanoseconds: 1_795_000_000_000_000_000, utcOffsetSeconds: 0), plannedCount: 5, doneCount: 5,
        timeAcuityScore: 77, meanAbsErrorSeconds: 2.5, meanSignedErrorSeconds: 1.0, fearSoundEffective: nil, healthLog: "written")

    @Test func offShowsTheFeedbackAndTheScore() {
        #expect(WaybarStatus.line(stateFileText: Self.stateFile(privacy: false), lastSession: nil)
                == #"{"alt":"FeedbackFlash","class":"feedbackflash","text":"⏱ challenge 30s 2/5","tooltip":"FeedbackFlash on desktop\nLast feedback: Late by 3s · yellow\nLast session: 2026-11-24 30s · 81\nHealth log: on"}"#)
        #expect(WaybarStatus.line(stateFileText: nil, lastSession: Self.storeSession)
                == #"{"alt":"Stopped","class":"stopped","text":"⏱ 2026-11-18 45s · 77","tooltip":"The device is not running.\nLast session: 2026-11-18 45s · 77"}"#)
    }

    @Test func onFromTheStoreOrTheFileHidesThemAndSaysSo() {
        let hidden = #"{"alt":"FeedbackFlash","class":"feedbackflash","text":"⏱ challenge 30s 2/5","tooltip":"FeedbackFlash on desktop\nLast session: 2026-11-24 30s\nHealth log: on\nScores hidden (glanceable-privacy is on)."}"#
        // The store's setting (a file written before the switch turned, or by an older writer)…
        #expect(WaybarStatus.line(stateFileText: Self.stateFile(privacy: nil), lastSession: nil, hideScores: true) == hidden)
        // …or the file's writer saying it withheld them.
        #expect(WaybarStatus.line(stateFileText: Self.stateFile(privacy: true), lastSession: nil) == hidden)
        // Stopped: the store's last session without its score.
        #expect(WaybarStatus.line(stateFileText: nil, lastSession: Self.storeSession, hideScores: true)
                == #"{"alt":"Stopped","class":"stopped","text":"⏱ 2026-11-18 45s","tooltip":"The device is not running.\nLast session: 2026-11-18 45s\nScores hidden (glanceable-privacy is on)."}"#)
    }
}
