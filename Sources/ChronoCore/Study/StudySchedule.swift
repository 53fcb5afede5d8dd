/// Where a participant stands in their plan at an instant: which sessions are done, missed, due
/// today or still to come, and when the next one may start. Pure on the instants it is given, so a
/// test moves days forward by changing `now`, and device and collector say the same.
///
/// Study day d runs from `start + d × 24 h` to `start + (d + 1) × 24 h` (the assignment's start, by
/// default the local midnight of the day it was made; a change of UTC offset inside the study moves
/// nothing). A session is available from the start of its day and at least the schedule's minimum
/// gap after the last completed session; one not done by the end of its day is missed. The gap never
/// carries a session out of its day: a session is due at the latest at its day's end less the time it
/// needs (`StudyPlan.Session.dayEndReserve`), so the line never names a time on a later day for it.
public enum StudySchedule {
    public static let dayNanoseconds: Int64 = 86_400 * 1_000_000_000

    /// A plan position done, with the instant its session ended.
    public struct Completion: Hashable, Sendable {
        public var position: Int
        public var endedUnixNanoseconds: Int64

        public init(position: Int, endedUnixNanoseconds: Int64) {
            self.position = position
            self.endedUnixNanoseconds = endedUnixNanoseconds
        }
    }

    /// A planned session's state at the instant asked about.
    public enum State: String, Hashable, Sendable {
        case done
        /// Its day ended without it.
        case missed
        /// Its day is today and it is not done yet.
        case due
        /// Its day is still to come.
        case upcoming
    }

    /// The participant's standing.
    public struct Status: Hashable, Sendable {
        /// Each plan position's state, in plan order.
        public var states: [State]
        /// The study day `now` falls on (from 0); nil before the start or after the last day.
        public var day: Int?
        /// The next session to run: the first position neither done nor missed; nil when none is left.
        public var next: Int?
        /// When `next` may start (its day's start, or the last completion plus the minimum gap):
        /// at or before `now` means it is due now.
        public var nextDueUnixNanoseconds: Int64?

        public var done: Int { states.count { $0 == .done } }
        public var missed: Int { states.count { $0 == .missed } }
        public var due: Int { states.count { $0 == .due } }
        public var upcoming: Int { states.count { $0 == .upcoming } }
        /// Nothing left to run: every session done or missed.
        public var finished: Bool { next == nil }
    }

    /// The status of `plan`, started at `startUnixNanoseconds`, with `completions`, at `nowUnixNanoseconds`.
    /// Completions of positions outside the plan are ignored; a position completed twice counts once.
    public static func status(plan: StudyPlan, startUnixNanoseconds start: Int64, completions: [Completion],
                              nowUnixNanoseconds now: Int64) -> Status {
        let count = plan.sessions.count
        var done = Array(repeating: false, count: count)
        var lastEnd: Int64?
        for completion in completions where (0..<count).contains(completion.position) {
            done[completion.position] = true
            lastEnd = max(lastEnd ?? completion.endedUnixNanoseconds, completion.endedUnixNanoseconds)
        }
        func dayStart(_ day: Int) -> Int64 {
            let offset = Int64(day).multipliedReportingOverflow(by: dayNanoseconds)
            let sum = start.addingReportingOverflow(offset.partialValue)
            return offset.overflow || sum.overflow ? .max : sum.partialValue
        }
        var states: [State] = []
        states.reserveCapacity(count)
        for session in plan.sessions {
            if done[session.position] { states.append(.done); continue }
            if now >= dayStart(session.day + 1) { states.append(.missed); continue }
            states.append(now >= dayStart(session.day) ? .due : .upcoming)
        }
        let next = states.firstIndex { $0 == .due || $0 == .upcoming }
        var nextDue: Int64?
        if let next {
            let session = plan.sessions[next]
            let opens = dayStart(session.day)
            let gap = plan.schedule.minimumGap.nanoseconds
            // The latest instant that still leaves the session its reserve inside its own day.
            let latest = dayStart(session.day + 1).subtractingReportingOverflow(session.dayEndReserve.nanoseconds)
            let afterGap = lastEnd.map { $0.addingReportingOverflow(gap) }.map { $0.overflow ? Int64.max : $0.partialValue } ?? opens
            nextDue = max(opens, latest.overflow ? afterGap : min(afterGap, latest.partialValue))
        }
        var day: Int?
        if now >= start {
            let elapsed = (now - start) / dayNanoseconds
            if elapsed < Int64(plan.schedule.days) { day = Int(elapsed) }
        }
        return Status(states: states, day: day, next: next, nextDueUnixNanoseconds: nextDue)
    }
}
