import ChronoCore

/// A finished session as it crosses the wire: the raw measurements exactly as the device stored them
/// (monotonic nanoseconds of one boot, with the session's one wall/monotonic anchor), so a collector
/// computes every metric with the same core code as the device and never trusts a derived number.
/// Aborted and interrupted sessions travel too, with their status and reason and no health record: a
/// study counts adherence and dropout, and a collector's progress counts them as the device's does.
///
/// It is the one text form of a finished session: a sync batch carries it, and a fallback file
/// (`UnsavedSessionFile`, format 3) is this record in a small envelope, so `import` and a collector
/// read a session with the same decoder and the same validator (`validatedOutcome`).
public struct SyncedSession: Codable, Hashable, Sendable {
    /// The record's schema, written in every record as `schema`. 1: every record written before the
    /// key existed (its later fields optional, so those records decode as they are); 2: this one.
    /// A record of a newer schema is refused whole (its new fields would otherwise be dropped
    /// unread), so a collector is upgraded before its devices (docs/SYNC.md).
    public static let schemaVersion = 2
    /// This record's schema (`schemaVersion` when written here); nil in a record older than the key.
    public var schema: Int?
    /// The session's UUID: the idempotency key on every collector.
    public var id: String
    public var mode: String
    /// `completed`, `aborted` or `interrupted` (`SessionStatus`); a session still running never leaves
    /// the device.
    public var status: String
    public var targetIntervalMilliseconds: Int64
    public var plannedCount: Int
    public var fearThreshold: Double
    public var intervalPattern: String
    public var autoStartNextAttempt: Bool
    public var feedbackMilliseconds: Int64
    public var abortWindowMilliseconds: Int64
    public var debounceMilliseconds: Int64
    public var longPressMilliseconds: Int64
    public var startedMonotonicNanoseconds: Int64
    public var endedMonotonicNanoseconds: Int64
    public var anchorUnixNanoseconds: Int64
    public var anchorMonotonicNanoseconds: Int64
    public var utcOffsetSeconds: Int
    public var wallClockSynchronised: Bool
    public var board: String
    public var soundAudibleAtStart: Bool
    public var fearSoundEffective: Bool
    public var attempts: [Attempt]
    public var boundaries: [Boundary]
    /// The device's health-log decision: `record` or `skip`, with the reason a record was skipped.
    public var healthDecision: String
    public var healthSkipReason: String?
    /// The timing flag (`SessionOutcome.timingLateness`) in nanoseconds; absent when every time mark
    /// began within `CueTiming.tolerance`, and always from devices older than the flag (optional, so
    /// their batches decode as before).
    public var timingLateNanoseconds: Int64?
    /// The person's note (`SessionNote`); absent when there is none, and always from devices older than
    /// notes (optional, so their batches decode as before). The one field a collector updates when a
    /// session it has arrives again: a device re-sends a session whose note changed.
    public var note: String?
    /// The session's study tag (the core's `StudyTag` itself, coded with its snake_case names; contract of
    /// issue 24): absent for a session run outside a study, and always from devices older than studies
    /// (optional, so their batches decode as before).
    public var study: StudyTag?
    /// Why the session ended as it did (`SessionOutcome.reason`: an early end for the battery, an
    /// interruption's cause), as the device recorded it; absent when there is none, and always from
    /// devices older than the field (optional, so their batches decode as before).
    public var reason: String?

    /// One Challenge, Fear or Reproduction attempt. For every attempt mode the produced duration is
    /// `tap − start` and the target the session's interval; in Reproduction `start` is the press that
    /// starts the reproduction, `tap` the press that ends it, and the two presented marks' onsets come
    /// beside them (absent in other modes and from devices older than Reproduction, so their batches
    /// decode as before).
    public struct Attempt: Codable, Hashable, Sendable {
        public var index: Int
        public var startMonotonicNanoseconds: Int64
        public var tapMonotonicNanoseconds: Int64
        /// Reproduction: the onset of the mark that began the presented interval.
        public var presentedStartMonotonicNanoseconds: Int64?
        /// Reproduction: the onset of the mark that ended it.
        public var presentedEndMonotonicNanoseconds: Int64?

        public init(index: Int, startMonotonicNanoseconds: Int64, tapMonotonicNanoseconds: Int64,
                    presentedStartMonotonicNanoseconds: Int64? = nil, presentedEndMonotonicNanoseconds: Int64? = nil) {
            self.index = index
            self.startMonotonicNanoseconds = startMonotonicNanoseconds
            self.tapMonotonicNanoseconds = tapMonotonicNanoseconds
            self.presentedStartMonotonicNanoseconds = presentedStartMonotonicNanoseconds
            self.presentedEndMonotonicNanoseconds = presentedEndMonotonicNanoseconds
        }

        enum CodingKeys: String, CodingKey {
            case index
            case startMonotonicNanoseconds = "start_mono_ns"
            case tapMonotonicNanoseconds = "tap_mono_ns"
            case presentedStartMonotonicNanoseconds = "presented_start_mono_ns"
            case presentedEndMonotonicNanoseconds = "presented_end_mono_ns"
        }
    }

    /// One Passive boundary: when it was due and when the motor driver fired it (nil: not measured).
    public struct Boundary: Codable, Hashable, Sendable {
        public var index: Int
        public var dueMonotonicNanoseconds: Int64
        public var firedMonotonicNanoseconds: Int64?

        public init(index: Int, dueMonotonicNanoseconds: Int64, firedMonotonicNanoseconds: Int64?) {
            self.index = index
            self.dueMonotonicNanoseconds = dueMonotonicNanoseconds
            self.firedMonotonicNanoseconds = firedMonotonicNanoseconds
        }

        enum CodingKeys: String, CodingKey {
            case index
            case dueMonotonicNanoseconds = "due_mono_ns"
            case firedMonotonicNanoseconds = "fired_mono_ns"
        }
    }

    /// Every field given: for an end that rebuilds a session from its own rows (the collector's
    /// stores) or a test that states one exactly. The same signature as the memberwise initialiser.
    public init(id: String, mode: String, status: String, targetIntervalMilliseconds: Int64, plannedCount: Int, fearThreshold: Double,
                intervalPattern: String, autoStartNextAttempt: Bool, feedbackMilliseconds: Int64, abortWindowMilliseconds: Int64,
                debounceMilliseconds: Int64, longPressMilliseconds: Int64, startedMonotonicNanoseconds: Int64,
                endedMonotonicNanoseconds: Int64, anchorUnixNanoseconds: Int64, anchorMonotonicNanoseconds: Int64,
                utcOffsetSeconds: Int, wallClockSynchronised: Bool, board: String, soundAudibleAtStart: Bool,
                fearSoundEffective: Bool, attempts: [Attempt], boundaries: [Boundary], healthDecision: String,
                healthSkipReason: String?, timingLateNanoseconds: Int64? = nil, note: String? = nil, study: StudyTag? = nil,
                reason: String? = nil, schema: Int? = SyncedSession.schemaVersion) {
        self.schema = schema
        self.id = id
        self.mode = mode
        self.status = status
        self.targetIntervalMilliseconds = targetIntervalMilliseconds
        self.plannedCount = plannedCount
        self.fearThreshold = fearThreshold
        self.intervalPattern = intervalPattern
        self.autoStartNextAttempt = autoStartNextAttempt
        self.feedbackMilliseconds = feedbackMilliseconds
        self.abortWindowMilliseconds = abortWindowMilliseconds
        self.debounceMilliseconds = debounceMilliseconds
        self.longPressMilliseconds = longPressMilliseconds
        self.startedMonotonicNanoseconds = startedMonotonicNanoseconds
        self.endedMonotonicNanoseconds = endedMonotonicNanoseconds
        self.anchorUnixNanoseconds = anchorUnixNanoseconds
        self.anchorMonotonicNanoseconds = anchorMonotonicNanoseconds
        self.utcOffsetSeconds = utcOffsetSeconds
        self.wallClockSynchronised = wallClockSynchronised
        self.board = board
        self.soundAudibleAtStart = soundAudibleAtStart
        self.fearSoundEffective = fearSoundEffective
        self.attempts = attempts
        self.boundaries = boundaries
        self.healthDecision = healthDecision
        self.healthSkipReason = healthSkipReason
        self.timingLateNanoseconds = timingLateNanoseconds
        self.note = note
        self.study = study
        self.reason = reason
    }

    enum CodingKeys: String, CodingKey {
        case schema
        case id, mode, status
        case targetIntervalMilliseconds = "target_interval_ms"
        case plannedCount = "planned_count"
        case fearThreshold = "fear_threshold"
        case intervalPattern = "interval_pattern"
        case autoStartNextAttempt = "auto_start_next_attempt"
        case feedbackMilliseconds = "feedback_ms"
        case abortWindowMilliseconds = "abort_window_ms"
        case debounceMilliseconds = "debounce_ms"
        case longPressMilliseconds = "long_press_ms"
        case startedMonotonicNanoseconds = "started_mono_ns"
        case endedMonotonicNanoseconds = "ended_mono_ns"
        case anchorUnixNanoseconds = "anchor_unix_ns"
        case anchorMonotonicNanoseconds = "anchor_mono_ns"
        case utcOffsetSeconds = "utc_offset_seconds"
        case wallClockSynchronised = "wall_clock_synchronised"
        case board
        case soundAudibleAtStart = "sound_audible_at_start"
        case fearSoundEffective = "fear_sound_effective"
        case attempts, boundaries
        case healthDecision = "health_decision"
        case healthSkipReason = "health_skip_reason"
        case timingLateNanoseconds = "timing_late_ns"
        case note
        case study
        case reason
    }
}

extension SyncedSession {
    /// The wire form of a finished session the device kept, whatever its status.
    public init(sessionID: String, outcome: SessionOutcome, anchor: WallClockAnchor, board: String,
                 wallClockSynchronised: Bool, soundAudibleAtStart: Bool, boundariesFired: [MonotonicInstant?], note: String? = nil, study: StudyTag? = nil) {
        let configuration = outcome.configuration
        let decision = HealthRecordBuilder.decide(for: outcome, sessionID: sessionID, device: board, anchor: anchor)
        schema = Self.schemaVersion
        id = sessionID
        mode = configuration.mode.rawValue
        status = outcome.status.rawValue
        targetIntervalMilliseconds = configuration.interval.span.nanoseconds / 1_000_000
        plannedCount = configuration.plannedCount
        fearThreshold = configuration.fearThreshold
        intervalPattern = configuration.intervalPattern.description
        autoStartNextAttempt = configuration.timing.autoStartNextAttempt
        feedbackMilliseconds = configuration.timing.feedbackDuration.milliseconds
        abortWindowMilliseconds = configuration.timing.abortConfirmWindow.milliseconds
        debounceMilliseconds = configuration.gestures.debounce.milliseconds
        longPressMilliseconds = configuration.gestures.longPress.milliseconds
        startedMonotonicNanoseconds = outcome.startedAt.nanoseconds
        endedMonotonicNanoseconds = outcome.endedAt.nanoseconds
        anchorUnixNanoseconds = anchor.unixNanoseconds
        anchorMonotonicNanoseconds = anchor.monotonic.nanoseconds
        utcOffsetSeconds = anchor.utcOffsetSeconds
        self.wallClockSynchronised = wallClockSynchronised
        self.board = board
        self.soundAudibleAtStart = soundAudibleAtStart
        fearSoundEffective = outcome.fearSoundEffective
        attempts = outcome.attempts.map {
            Attempt(index: $0.index, startMonotonicNanoseconds: $0.startMark.nanoseconds, tapMonotonicNanoseconds: $0.tapMark.nanoseconds,
                    presentedStartMonotonicNanoseconds: $0.presentedStart?.nanoseconds, presentedEndMonotonicNanoseconds: $0.presentedEnd?.nanoseconds)
        }
        boundaries = outcome.boundaries.enumerated().map { position, boundary in
            Boundary(index: boundary.index, dueMonotonicNanoseconds: boundary.due.nanoseconds,
                     firedMonotonicNanoseconds: position < boundariesFired.count ? boundariesFired[position]?.nanoseconds : nil)
        }
        switch decision {
        case .record: healthDecision = "record"; healthSkipReason = nil
        case .none(let reason): healthDecision = "skip"; healthSkipReason = reason
        }
        timingLateNanoseconds = outcome.timingLateness?.nanoseconds
        self.note = note
        self.study = study
        reason = outcome.reason
    }

    /// The session's anchor, as the device took it.
    public var anchor: WallClockAnchor {
        WallClockAnchor(unixNanoseconds: anchorUnixNanoseconds, monotonic: MonotonicInstant(nanoseconds: anchorMonotonicNanoseconds),
                        utcOffsetSeconds: utcOffsetSeconds)
    }

    /// Checks the session with the same bounded types the device uses and rebuilds its outcome, so a
    /// collector computes metrics, progress and exports with the core's code. The error names the
    /// session and the field.
    public func validatedOutcome() throws(SyncValidationError) -> SessionOutcome {
        func fail(_ problem: String) -> SyncValidationError { SyncValidationError(sessionID: id, rule: "session_shape", problem: problem) }
        if let schema, schema > Self.schemaVersion {
            throw SyncValidationError(sessionID: id, rule: "session_schema",
                                      problem: "the record's schema \(schema) is newer than this program's \(Self.schemaVersion); upgrade this program (a collector is upgraded before its devices, docs/SYNC.md)")
        }
        if let schema, schema < 1 { throw SyncValidationError(sessionID: id, rule: "session_schema", problem: "schema \(schema) is not a schema (1 to \(Self.schemaVersion))") }
        guard CanonicalUUID(id) != nil else {
            throw SyncValidationError(sessionID: id, rule: SessionRule.id.rawValue, problem: "id is not a UUID (8-4-4-4-12 ASCII hexadecimal digits)")
        }
        guard let status = SessionStatus(rawValue: status) else {
            throw fail("status '\(status)' is not completed, aborted or interrupted; a running session is never synced")
        }
        guard let mode = SessionMode(rawValue: mode) else { throw fail("mode '\(mode)' is not challenge, fear, passive or reproduction") }
        // The bounds are the core's (`SessionValidation`), the same `import` applies to a fallback file.
        guard let interval = SessionValidation.interval(milliseconds: targetIntervalMilliseconds) else {
            throw fail(SessionValidation.intervalProblem("target_interval_ms", milliseconds: targetIntervalMilliseconds) ?? "target_interval_ms")
        }
        guard let pattern = HapticPattern(notation: intervalPattern) else {
            throw fail("interval_pattern \(TerminalSafeText.quoted(intervalPattern)) is not an interval pattern")
        }
        for (name, value) in [("feedback_ms", feedbackMilliseconds), ("abort_window_ms", abortWindowMilliseconds),
                              ("debounce_ms", debounceMilliseconds), ("long_press_ms", longPressMilliseconds)] {
            if let problem = SessionValidation.timingProblem(name, milliseconds: value) { throw fail(problem) }
        }
        let configuration: SessionConfiguration
        do {
            configuration = try SessionConfiguration(
                mode: mode, interval: interval, plannedCount: plannedCount, fearThreshold: fearThreshold, intervalPattern: pattern,
                timing: SessionTiming(feedbackDuration: .milliseconds(feedbackMilliseconds),
                                      abortConfirmWindow: .milliseconds(abortWindowMilliseconds),
                                      autoStartNextAttempt: autoStartNextAttempt),
                gestures: GestureSettings(debounce: .milliseconds(debounceMilliseconds), longPress: .milliseconds(longPressMilliseconds)),
                // The wire keeps the feedback policy in the study tag, as the device's row does.
                feedback: study.map { $0.feedbackShown ? .shown : .withheld } ?? .shown)
        } catch {
            throw fail("configuration: \(error)")
        }
        guard healthDecision == "record" || healthDecision == "skip" else { throw fail("health_decision '\(healthDecision)' is not record or skip") }
        guard status == .completed || healthDecision == "skip" else {
            throw fail("health_decision is 'record' for a session that is \(status.rawValue); only completed sessions are logged")
        }
        if let healthSkipReason, let problem = SessionValidation.skipReasonProblem(healthSkipReason) {
            throw SyncValidationError(sessionID: id, rule: SessionRule.text.rawValue, problem: problem)
        }
        // The note passes the one validator, and must arrive as a device stores it (trimmed; no empty
        // string for "no note"), so the collector keeps exactly what the device shows.
        if let note {
            let checked: String?
            do { checked = try SessionNote.validated(note) } catch {
                throw SyncValidationError(sessionID: id, rule: SessionNoteViolation.code, problem: error.message)
            }
            guard checked == note else {
                throw SyncValidationError(sessionID: id, rule: SessionNoteViolation.code,
                                          problem: "the note has surrounding whitespace or is empty; send it trimmed, or leave it out for no note")
            }
        }
        // The study tag passes the core's own bounds (the same `StudyTag.problem` the device's store applies).
        if let study, let problem = study.problem() {
            throw SyncValidationError(sessionID: id, rule: "session_study", problem: problem)
        }
        let outcome = SessionOutcome(
            status: status, configuration: configuration,
            startedAt: MonotonicInstant(nanoseconds: startedMonotonicNanoseconds),
            endedAt: MonotonicInstant(nanoseconds: endedMonotonicNanoseconds),
            attempts: attempts.map {
                AttemptMeasurement(index: $0.index, target: interval, startMark: MonotonicInstant(nanoseconds: $0.startMonotonicNanoseconds),
                                   tapMark: MonotonicInstant(nanoseconds: $0.tapMonotonicNanoseconds),
                                   presentedStart: $0.presentedStartMonotonicNanoseconds.map(MonotonicInstant.init(nanoseconds:)),
                                   presentedEnd: $0.presentedEndMonotonicNanoseconds.map(MonotonicInstant.init(nanoseconds:)))
            },
            boundaries: boundaries.map { PassiveBoundary(index: $0.index, due: MonotonicInstant(nanoseconds: $0.dueMonotonicNanoseconds)) },
            fearSoundEffective: fearSoundEffective, reason: reason,
            timingLateness: timingLateNanoseconds.map(TimeSpan.init(nanoseconds:)))
        // The core's rules, the same the device's store and `import` apply.
        let record = SessionFinishRecord(sessionID: id, outcome: outcome, anchor: anchor, board: board)
        let firings = boundaries.map { $0.firedMonotonicNanoseconds.map(MonotonicInstant.init(nanoseconds:)) }
        do { _ = try SessionValidation.validated(record, firings: firings) } catch {
            throw SyncValidationError(sessionID: id, rule: error.rule.rawValue, problem: error.detail)
        }
        return outcome
    }

    /// The id in canonical form (upper case), for a session `validatedOutcome()` accepted.
    public var canonicalID: String { CanonicalUUID(id)?.text ?? id }
}

/// A session a collector refuses, with the rule it breaks (`SessionRule`'s codes, or `session_shape`
/// for a field the wire form itself cannot hold) and the field that is wrong.
public struct SyncValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    public var sessionID: String
    public var rule: String
    public var problem: String
    public var description: String {
        "session \(SessionRuleViolation.shown(id: sessionID)) breaks rule \(rule): \(problem)"
    }
}
