@testable import ChronoCLI
import ChronoCore
import ChronoRuntime
import Foundation
import Testing

/// `status --follow` prints the study line as `status` does (docs/STUDIES.md, "The study line"): on its
/// own line after each state, word for word, and an offered preset is marked as outside the study.
@Suite("status --follow: the study line")
struct FollowStudyLineTests {
    static let line = "Study sleep-2026 · day 2 · session 1 of 2 · next due 14:00"

    /// A state event's object as the API sends it (`DeviceState.apiJSON`'s members that matter here).
    static func state(_ members: [String: Any]) -> [String: Any] {
        var object: [String: Any] = ["state": "Idle", "study": ["line": line, "finished": false] as [String: Any]]
        for (key, value) in members { object[key] = value }
        return object
    }

    @Test("each state prints the study line under it, as status prints it")
    func studyLine() {
        let object = Self.state([:])
        #expect(FollowLine.text(event: "state", object) == "Idle\n" + Self.line)
        #expect(StateFileText.lines(object).contains(Self.line))
        let offered = Self.state(["state": "Configuring", "offered_preset": "30s"])
        #expect(FollowLine.text(event: "state", offered) == "Configuring · offered 30s (outside the study)\n" + Self.line)
        #expect(StateFileText.lines(offered).contains("Offered preset: 30s (outside the study)"))
    }

    @Test("without a study the state line is as it was")
    func noStudy() {
        #expect(FollowLine.text(event: "state", ["state": "Configuring", "offered_preset": "30s"]) == "Configuring · offered 30s")
    }
}
