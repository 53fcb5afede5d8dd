extension DeviceState {
    /// Today's completed sessions (on the local day) against the `daily-goal` setting: the seeds'
    /// "today's progress vs goal", on Home, in `status`, the state file and the status bar.
    public struct Today: Hashable, Sendable {
        public var sessions: Int
        /// Sessions a day aimed at; nil: no goal.
        public var goal: Int?

        public init(sessions: Int, goal: Int) {
            self.sessions = sessions
            self.goal = goal > 0 ? goal : nil
        }

        public var goalMet: Bool { goal.map { sessions >= $0 } ?? false }

        /// "Today: 1 of 3 sessions", "Today: 2 sessions".
        public var text: String { ReminderRules.todayText(sessionsToday: sessions, goal: goal ?? 0) }

        public var json: JSONValue {
            .object([
                ("sessions", .int(sessions)),
                ("goal", goal.map { .int($0) } ?? .null),
                ("goal_met", .bool(goalMet)),
                ("line", .string(text)),
            ])
        }
    }
}
