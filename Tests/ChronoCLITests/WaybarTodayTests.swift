import ChronoCore
import Foundation
import Testing
@testable import ChronoCLI

/// `status --format waybar` with today's count against the goal and a due reminder, byte for byte:
/// the count on the bar when a goal is set, both lines in the tooltip.
@Suite struct WaybarTodayTests {
    static func stateFile(goal: String) -> String {
        #"{"version":3,"state":"Idle","board":"desktop","health":"on","today":{"sessions":1,"goal":\#(goal),"goal_met":false,"line":"Today: 1 of 3 sessions"},"reminder":"Time to train: 1 of 3 sessions today.","last_session":{"date":"2026-11-24","interval":"30s","time_acuity_score":81},"pid":\#(getpid())}"#
    }

    @Test func goalOnTheBarAndReminderInTheTooltip() {
        #expect(WaybarStatus.line(stateFileText: Self.stateFile(goal: "3"), lastSession: nil)
                == #"{"alt":"Idle","class":"idle","text":"⏱ 2026-11-24 30s · 81 · 1/3","tooltip":"Idle on desktop\nLast session: 2026-11-24 30s · 81\nHealth log: on\nToday: 1 of 3 sessions\nReminder: Time to train: 1 of 3 sessions today."}"#)
        // Without a goal the bar stays as it was; the tooltip still counts today.
        #expect(WaybarStatus.line(stateFileText: Self.stateFile(goal: "null"), lastSession: nil)
                == #"{"alt":"Idle","class":"idle","text":"⏱ 2026-11-24 30s · 81","tooltip":"Idle on desktop\nLast session: 2026-11-24 30s · 81\nHealth log: on\nToday: 1 of 3 sessions\nReminder: Time to train: 1 of 3 sessions today."}"#)
    }
}
