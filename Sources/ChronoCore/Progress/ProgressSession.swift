/// One session as progress reads it: what a recent line shows and what the figures are summed from.
/// The device's store fills it from its rows, the collector from a synced session's outcome
/// (`init(id:outcome:anchor:…)`); `ProgressReport.of` turns a set of them into the report, so the
/// same sessions give the same figures on both.
public struct ProgressSession: Hashable, Sendable {
    /// One attempt's errors, for the zones strip and Time Acuity of the last attempts.
    public struct AttemptErrors: Hashable, Sendable {
        public var zone: ErrorZone
        public var absErrorSeconds: Double
        public var absPercentError: Double

        public init(_ attempt: AttemptMeasurement) {
            zone = attempt.zone
            absErrorSeconds = attempt.absErrorSeconds
            absPercentError = attempt.absPercentError
        }
    }

    public var id: String
    public var mode: SessionMode
    public var interval: TrainingInterval
    /// `completed`, `aborted`, `interrupted` or `running`.
    public var status: String
    /// Wall-clock start (each session's own anchor) and its UTC offset, which places it on a local day.
    public var startedUnixNanoseconds: Int64
    public var utcOffsetSeconds: Int
    public var plannedCount: Int
    /// Attempts (Challenge, Fear, Reproduction) or boundaries (Passive) done.
    public var doneCount: Int
    /// The H(I) the session was run with.
    public var pattern: HapticPattern
    /// The sums of its attempts' errors (attempt count 0: none, or a mode without attempts).
    public var errors: ErrorAccumulator
    public var timeAcuityScore: Int?
    public var meanAbsErrorSeconds: Double?
    public var meanSignedErrorSeconds: Double?
    /// Fear only.
    public var fearSoundEffective: Bool?
    /// The side's own health word: the device's ledger state (`written`, `owed`, `skipped`), the
    /// collector's copy of the device's decision (`record`, `skip`).
    public var healthLog: String?
    public var timingLateness: TimeSpan?
    public var note: String?
    /// Its results are withheld now (`ResultsWithholding`): it counts, none of its results shows.
    public var resultsWithheld: Bool
    /// Its attempts' errors in attempt order, when the reader loaded them (the device loads them only
    /// for the sessions whose attempts fill a zones strip; a synced session always has them).
    public var attempts: [AttemptErrors]?

    public init(id: String, mode: SessionMode, interval: TrainingInterval, status: String, startedUnixNanoseconds: Int64,
                utcOffsetSeconds: Int, plannedCount: Int, doneCount: Int, pattern: HapticPattern, errors: ErrorAccumulator,
                timeAcuityScore: Int?, meanAbsErrorSeconds: Double?, meanSignedErrorSeconds: Double?, fearSoundEffective: Bool?,
                healthLog: String?, timingLateness: TimeSpan?, note: String?, resultsWithheld: Bool, attempts: [AttemptErrors]?) {
        self.id = id
        self.mode = mode
        self.interval = interval
        self.status = status
        self.startedUnixNanoseconds = startedUnixNanoseconds
        self.utcOffsetSeconds = utcOffsetSeconds
        self.plannedCount = plannedCount
        self.doneCount = doneCount
        self.pattern = pattern
        self.errors = errors
        self.timeAcuityScore = timeAcuityScore
        self.meanAbsErrorSeconds = meanAbsErrorSeconds
        self.meanSignedErrorSeconds = meanSignedErrorSeconds
        self.fearSoundEffective = fearSoundEffective
        self.healthLog = healthLog
        self.timingLateness = timingLateness
        self.note = note
        self.resultsWithheld = resultsWithheld
        self.attempts = attempts
    }

    /// A finished session from its outcome, with the figures the device's row keeps for it (the same
    /// rules as the store's session write: metrics only for a mode with attempts that has some).
    public init(id: String, outcome: SessionOutcome, anchor: WallClockAnchor, healthLog: String?, note: String?, resultsWithheld: Bool) {
        let hasMetrics = outcome.mode.usesAttempts && !outcome.attempts.isEmpty
        let metrics = outcome.metrics
        var errors = ErrorAccumulator()
        if hasMetrics { errors.add(metrics) }
        self.init(
            id: id, mode: outcome.mode, interval: outcome.configuration.interval, status: outcome.status.rawValue,
            startedUnixNanoseconds: anchor.unixNanoseconds(at: outcome.startedAt), utcOffsetSeconds: anchor.utcOffsetSeconds,
            plannedCount: outcome.configuration.plannedCount,
            doneCount: outcome.mode.usesAttempts ? outcome.attempts.count : outcome.repetitionsDone,
            pattern: outcome.configuration.intervalPattern, errors: errors,
            timeAcuityScore: hasMetrics ? metrics.timeAcuityScore : nil, meanAbsErrorSeconds: hasMetrics ? metrics.meanAbsErrorSeconds : nil,
            meanSignedErrorSeconds: hasMetrics ? metrics.meanSignedErrorSeconds : nil,
            fearSoundEffective: outcome.mode == .fear ? outcome.fearSoundEffective : nil, healthLog: healthLog,
            timingLateness: outcome.timingLateness, note: note, resultsWithheld: resultsWithheld,
            attempts: outcome.attempts.map(AttemptErrors.init))
    }

    /// Newest first, as every list of sessions is ordered: start, then id.
    public static func newerFirst(_ a: ProgressSession, _ b: ProgressSession) -> Bool {
        (a.startedUnixNanoseconds, a.id) > (b.startedUnixNanoseconds, b.id)
    }

    var isCompleted: Bool { status == SessionStatus.completed.rawValue }

    /// Its results may enter a figure: completed, with attempts, not withheld.
    var countsInFigures: Bool { isCompleted && !resultsWithheld && errors.attemptCount > 0 }

    /// Its recent-sessions line.
    public var line: ProgressReport.SessionLine {
        let line = ProgressReport.SessionLine(
            sessionID: id, mode: mode, interval: interval, status: status,
            startedAt: WallTime(unixNanoseconds: startedUnixNanoseconds, utcOffsetSeconds: utcOffsetSeconds),
            plannedCount: plannedCount, doneCount: doneCount, timeAcuityScore: timeAcuityScore,
            meanAbsErrorSeconds: meanAbsErrorSeconds, meanSignedErrorSeconds: meanSignedErrorSeconds,
            fearSoundEffective: fearSoundEffective, healthLog: healthLog, timingLateness: timingLateness, note: note)
        return resultsWithheld ? line.withheld : line
    }
}
