/// What `chronoception progress` shows (SPEC §5), as plain values: the store fills it from its
/// queries, and the derived numbers (typical errors, trend, Time Acuity, strips, sparklines) are
/// computed here, so the device, the CLI and the companion agree.
///
/// Windows: "last 7 days" is `[now − 7 days, now)` and "the 7 days before" `[now − 14 days, now − 7
/// days)`, by each session's wall-clock start. Typical error is the mean absolute error of the attempts
/// in a window (Challenge and Fear; Passive has none). Time Acuity per interval is the score of the
/// last `ZoneStrip.length` attempts, the same attempts as the zones strip.
public struct ProgressReport: Hashable, Sendable {
    public static let windowSeconds: Int64 = 7 * 86_400
    /// Days in the overall day-by-day sparkline.
    public static let overallDays = 28
    /// Days in each interval's sparkline.
    public static let intervalDays = 14
    /// How many intervals a report shows when not narrowed to one, on the device and the collector alike.
    public static let shownIntervalCount = 5
    /// How many sessions its recent list shows.
    public static let recentSessionCount = 10

    /// One interval's progress.
    public struct IntervalProgress: Hashable, Sendable {
        public var interval: TrainingInterval
        /// H(I), when assigned.
        public var pattern: HapticPattern?
        /// Completed sessions of every mode with this interval.
        public var completedSessions: Int
        public var lastSevenDays: ErrorAccumulator
        public var sevenDaysBefore: ErrorAccumulator
        /// Zones of the last attempts, oldest first (at most `ZoneStrip.length`).
        public var lastZones: [ErrorZone]
        /// The same attempts' errors, for Time Acuity.
        public var lastAttempts: ErrorAccumulator
        /// Per local day: that day's attempts.
        public var daily: [Int64: ErrorAccumulator]
        /// Completed sessions counted above whose results are withheld now (a study block without
        /// feedback): none of their attempts is in the figures.
        public var resultsWithheldSessions = 0

        public init(interval: TrainingInterval, pattern: HapticPattern?, completedSessions: Int,
                    lastSevenDays: ErrorAccumulator, sevenDaysBefore: ErrorAccumulator,
                    lastZones: [ErrorZone], lastAttempts: ErrorAccumulator, daily: [Int64: ErrorAccumulator]) {
            self.interval = interval
            self.pattern = pattern
            self.completedSessions = completedSessions
            self.lastSevenDays = lastSevenDays
            self.sevenDaysBefore = sevenDaysBefore
            self.lastZones = lastZones
            self.lastAttempts = lastAttempts
            self.daily = daily
        }

        public var trend: ProgressTrend {
            ProgressTrend.judge(recent: lastSevenDays.meanAbsErrorSeconds, earlier: sevenDaysBefore.meanAbsErrorSeconds)
        }

        public var timeAcuity: Int? { lastAttempts.timeAcuityScore }
    }

    /// One line of the recent-sessions list.
    public struct SessionLine: Hashable, Sendable {
        public var sessionID: String
        public var mode: SessionMode
        public var interval: TrainingInterval
        /// `completed`, `aborted`, `interrupted` or `running`.
        public var status: String
        public var startedAt: WallTime
        public var plannedCount: Int
        /// Attempts (Challenge, Fear) or boundaries (Passive) done.
        public var doneCount: Int
        /// Challenge and Fear with attempts.
        public var timeAcuityScore: Int?
        public var meanAbsErrorSeconds: Double?
        public var meanSignedErrorSeconds: Double?
        public var fearSoundEffective: Bool?
        /// The health-log ledger: `written`, `owed`, `skipped`, or nil for a running session.
        public var healthLog: String?
        /// The timing flag (`SessionOutcome.timingLateness`): nil when every mark began on time.
        public var timingLateness: TimeSpan?
        /// The person's note (`SessionNote`), nil when there is none.
        public var note: String?
        /// The session's results are withheld now (a study block without feedback): score and errors nil.
        public var resultsWithheld = false

        /// The same line with its results withheld.
        public var withheld: SessionLine {
            var line = self
            line.timeAcuityScore = nil
            line.meanAbsErrorSeconds = nil
            line.meanSignedErrorSeconds = nil
            line.resultsWithheld = true
            return line
        }

        public init(sessionID: String, mode: SessionMode, interval: TrainingInterval, status: String, startedAt: WallTime,
                    plannedCount: Int, doneCount: Int, timeAcuityScore: Int?, meanAbsErrorSeconds: Double?,
                    meanSignedErrorSeconds: Double?, fearSoundEffective: Bool?, healthLog: String?, timingLateness: TimeSpan? = nil,
                    note: String? = nil) {
            self.sessionID = sessionID
            self.mode = mode
            self.interval = interval
            self.status = status
            self.startedAt = startedAt
            self.plannedCount = plannedCount
            self.doneCount = doneCount
            self.timeAcuityScore = timeAcuityScore
            self.meanAbsErrorSeconds = meanAbsErrorSeconds
            self.meanSignedErrorSeconds = meanSignedErrorSeconds
            self.fearSoundEffective = fearSoundEffective
            self.healthLog = healthLog
            self.timingLateness = timingLateness
            self.note = note
        }
    }

    /// The local day of "now", which ends every sparkline.
    public var today: Int64
    public var intervals: [IntervalProgress]
    /// Completed sessions per mode (all time).
    public var completedByMode: [SessionMode: Int]
    public var abortedSessions: Int
    public var interruptedSessions: Int
    public var recentSessions: [SessionLine]
    /// Per local day, the attempts of every interval.
    public var daily: [Int64: ErrorAccumulator]
    /// Set when the report was narrowed to one interval.
    public var onlyInterval: TrainingInterval?
    /// Completed sessions (counted above) whose results are withheld now; none of their results is in
    /// any figure.
    public var resultsWithheldSessions = 0

    public init(today: Int64, intervals: [IntervalProgress], completedByMode: [SessionMode: Int], abortedSessions: Int,
                interruptedSessions: Int, recentSessions: [SessionLine], daily: [Int64: ErrorAccumulator],
                onlyInterval: TrainingInterval?) {
        self.today = today
        self.intervals = intervals
        self.completedByMode = completedByMode
        self.abortedSessions = abortedSessions
        self.interruptedSessions = interruptedSessions
        self.recentSessions = recentSessions
        self.daily = daily
        self.onlyInterval = onlyInterval
    }

    public var completedSessions: Int { completedByMode.values.reduce(0, +) }

    /// Whether there is nothing to show yet.
    public var isEmpty: Bool { completedSessions == 0 && abortedSessions == 0 && interruptedSessions == 0 }

    /// Share of completed sessions per mode, in `SessionMode.allCases` order; fractions sum to 1.
    /// Challenge, Fear and Passive are always listed; Reproduction (a later mode, mostly for studies)
    /// only once it has a completed session, so a person who never uses it sees the mix as before.
    public var modeMix: [(mode: SessionMode, sessions: Int, share: Double)] {
        let total = completedSessions
        return SessionMode.allCases.filter { $0 != .reproduction || completedByMode[$0, default: 0] > 0 }.map { mode in
            let count = completedByMode[mode, default: 0]
            return (mode, count, total > 0 ? Double(count) / Double(total) : 0)
        }
    }

    /// Daily Time Acuity over every interval, last `overallDays` days; days without attempts are gaps.
    public var overallAcuitySeries: DailySeries {
        Self.acuitySeries(daily, lastDay: today, dayCount: Self.overallDays)
    }

    public static func acuitySeries(_ daily: [Int64: ErrorAccumulator], lastDay: Int64, dayCount: Int) -> DailySeries {
        var values: [Int64: Double] = [:]
        for (day, errors) in daily {
            if let score = errors.timeAcuityScore { values[day] = Double(score) }
        }
        return DailySeries(lastDay: lastDay, dayCount: dayCount, valuesByDay: values)
    }
}
