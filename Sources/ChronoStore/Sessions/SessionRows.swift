import ChronoCore
import GRDB

/// The `session` row a session gets when it starts (status `running`): its configuration, start,
/// anchor, board and writer, each under its column's name. A GRDB record, so the columns are named
/// once, here, and written by `insert` (docs/STORE.md lists them).
struct SessionStartRow: Encodable, PersistableRecord {
    static let databaseTableName = "session"

    var id: String
    var mode: String
    var targetIntervalMilliseconds: Int64
    var plannedCount: Int
    var status: String
    var fearThresholdPercent: Double
    var soundAudibleAtStart: Bool
    var intervalPattern: String
    var autoStartNextAttempt: Bool
    var feedbackMilliseconds: Int64
    var abortWindowMilliseconds: Int64
    var debounceMilliseconds: Int64
    var longPressMilliseconds: Int64
    var startedMonotonicNanoseconds: Int64
    var anchorUnixNanoseconds: Int64
    var anchorMonotonicNanoseconds: Int64
    var utcOffsetSeconds: Int
    var startedUnixNanoseconds: Int64
    var wallClockSynchronised: Bool
    var board: String
    var bootID: String
    var writerPID: Int32
    var writerStartTicks: Int64

    enum CodingKeys: String, CodingKey {
        case id, mode, status, board
        case targetIntervalMilliseconds = "target_interval_ms"
        case plannedCount = "planned_count"
        case fearThresholdPercent = "fear_threshold_percent"
        case soundAudibleAtStart = "sound_audible_at_start"
        case intervalPattern = "interval_pattern"
        case autoStartNextAttempt = "auto_start_next_attempt"
        case feedbackMilliseconds = "feedback_ms"
        case abortWindowMilliseconds = "abort_window_ms"
        case debounceMilliseconds = "debounce_ms"
        case longPressMilliseconds = "long_press_ms"
        case startedMonotonicNanoseconds = "started_mono_ns"
        case anchorUnixNanoseconds = "anchor_unix_ns"
        case anchorMonotonicNanoseconds = "anchor_mono_ns"
        case utcOffsetSeconds = "utc_offset_seconds"
        case startedUnixNanoseconds = "started_unix_ns"
        case wallClockSynchronised = "wall_clock_synchronised"
        case bootID = "boot_id"
        case writerPID = "writer_pid"
        case writerStartTicks = "writer_start_ticks"
    }

    init(id: String, configuration: SessionConfiguration, startedAt: MonotonicInstant, anchor: WallClockAnchor, board: String,
         soundAudible: Bool, synchronised: Bool, writer: ProcessIdentity) {
        self.id = id
        mode = configuration.mode.rawValue
        targetIntervalMilliseconds = configuration.interval.span.milliseconds
        plannedCount = configuration.plannedCount
        status = "running"
        fearThresholdPercent = configuration.fearThreshold
        soundAudibleAtStart = soundAudible
        intervalPattern = configuration.intervalPattern.description
        autoStartNextAttempt = configuration.timing.autoStartNextAttempt
        feedbackMilliseconds = configuration.timing.feedbackDuration.milliseconds
        abortWindowMilliseconds = configuration.timing.abortConfirmWindow.milliseconds
        debounceMilliseconds = configuration.gestures.debounce.milliseconds
        longPressMilliseconds = configuration.gestures.longPress.milliseconds
        startedMonotonicNanoseconds = startedAt.nanoseconds
        anchorUnixNanoseconds = anchor.unixNanoseconds
        anchorMonotonicNanoseconds = anchor.monotonic.nanoseconds
        utcOffsetSeconds = anchor.utcOffsetSeconds
        startedUnixNanoseconds = anchor.unixNanoseconds(at: startedAt)
        wallClockSynchronised = synchronised
        self.board = board
        bootID = writer.bootID
        writerPID = writer.pid
        writerStartTicks = writer.startTicks
    }
}

/// What finishing a session writes onto its row: status and reason, start and end, counts, the
/// summary metrics (NULL where a mode has none) and the timing flag. Updated by the row's id, every
/// column here and no other (the configuration, anchor and writer stay as the start wrote them).
struct SessionFinishRow: Encodable, PersistableRecord {
    static let databaseTableName = "session"

    var id: String
    var status: String
    var reason: String?
    var startedMonotonicNanoseconds: Int64
    var endedMonotonicNanoseconds: Int64
    var startedUnixNanoseconds: Int64
    var doneCount: Int
    var attemptCount: Int
    var fearSoundEffective: Bool?
    var meanAbsErrorSeconds: Double?
    var meanSignedErrorSeconds: Double?
    var stdDevErrorSeconds: Double?
    var meanAbsPercentError: Double?
    var timeAcuityScore: Int?
    var totalDurationSeconds: Int
    var board: String
    var timingLateNanoseconds: Int64?

    enum CodingKeys: String, CodingKey {
        case id, status, reason, board
        case startedMonotonicNanoseconds = "started_mono_ns"
        case endedMonotonicNanoseconds = "ended_mono_ns"
        case startedUnixNanoseconds = "started_unix_ns"
        case doneCount = "done_count"
        case attemptCount = "attempt_count"
        case fearSoundEffective = "fear_sound_effective"
        case meanAbsErrorSeconds = "mean_abs_error_seconds"
        case meanSignedErrorSeconds = "mean_signed_error_seconds"
        case stdDevErrorSeconds = "std_dev_error_seconds"
        case meanAbsPercentError = "mean_abs_percent_error"
        case timeAcuityScore = "time_acuity_score"
        case totalDurationSeconds = "total_duration_seconds"
        case timingLateNanoseconds = "timing_late_ns"
    }

    /// Optionals are written as NULL, never left out: a column this row names always gets its value.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(status, forKey: .status)
        try container.encode(reason, forKey: .reason)
        try container.encode(startedMonotonicNanoseconds, forKey: .startedMonotonicNanoseconds)
        try container.encode(endedMonotonicNanoseconds, forKey: .endedMonotonicNanoseconds)
        try container.encode(startedUnixNanoseconds, forKey: .startedUnixNanoseconds)
        try container.encode(doneCount, forKey: .doneCount)
        try container.encode(attemptCount, forKey: .attemptCount)
        try container.encode(fearSoundEffective, forKey: .fearSoundEffective)
        try container.encode(meanAbsErrorSeconds, forKey: .meanAbsErrorSeconds)
        try container.encode(meanSignedErrorSeconds, forKey: .meanSignedErrorSeconds)
        try container.encode(stdDevErrorSeconds, forKey: .stdDevErrorSeconds)
        try container.encode(meanAbsPercentError, forKey: .meanAbsPercentError)
        try container.encode(timeAcuityScore, forKey: .timeAcuityScore)
        try container.encode(totalDurationSeconds, forKey: .totalDurationSeconds)
        try container.encode(board, forKey: .board)
        try container.encode(timingLateNanoseconds, forKey: .timingLateNanoseconds)
    }

    init(_ finish: SessionFinishRecord) {
        let outcome = finish.outcome
        let usesAttempts = outcome.mode.usesAttempts
        let metrics = outcome.metrics
        let hasMetrics = usesAttempts && !outcome.attempts.isEmpty
        id = finish.sessionID
        status = outcome.status.rawValue
        reason = outcome.reason
        startedMonotonicNanoseconds = outcome.startedAt.nanoseconds
        endedMonotonicNanoseconds = outcome.endedAt.nanoseconds
        startedUnixNanoseconds = finish.anchor.unixNanoseconds(at: outcome.startedAt)
        doneCount = usesAttempts ? outcome.attempts.count : outcome.repetitionsDone
        attemptCount = outcome.attempts.count
        fearSoundEffective = outcome.mode == .fear ? outcome.fearSoundEffective : nil
        meanAbsErrorSeconds = hasMetrics ? metrics.meanAbsErrorSeconds : nil
        meanSignedErrorSeconds = hasMetrics ? metrics.meanSignedErrorSeconds : nil
        stdDevErrorSeconds = hasMetrics ? metrics.stdDevErrorSeconds : nil
        meanAbsPercentError = hasMetrics ? metrics.meanAbsPercentError : nil
        timeAcuityScore = hasMetrics ? metrics.timeAcuityScore : nil
        totalDurationSeconds = outcome.totalDurationSeconds
        board = finish.board
        timingLateNanoseconds = outcome.timingLateness?.nanoseconds
    }
}
