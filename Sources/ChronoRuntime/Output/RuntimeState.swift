import ChronoCore

/// What the device is doing, as the glanceable state file shows it (SPEC §7): versioned, small, and
/// enough for a status display, a widget or the companion to mirror the device without talking to it.
///
/// Equality ignores nothing: the loop publishes a new file only when this value changes, so it is
/// written on state changes and never on a timer.
public struct RuntimeState: Hashable, Sendable {
    /// The file format's version; bumped when a key is added or changes meaning (2: `pairing_request`;
    /// 3: `next_session`, `glanceable_privacy`).
    public static let formatVersion = 3

    /// What the device is doing (the file's `state`).
    public var state: Name
    public var board: String
    public var mode: SessionMode?
    public var interval: TrainingInterval?
    /// Challenge/Fear: the attempt running or next (k of N).
    public var attempt: Int?
    public var attemptCount: Int?
    /// Passive: boundaries done (k of N) and when the next one is due.
    public var repetitionsDone: Int?
    public var repetitionCount: Int?
    public var nextBoundary: WallTime?
    /// Fear only: `audible`, `inaudible: <reason>` or `lost: <reason>`.
    public var fearSound: String?
    /// `on`, `off` or `failing: <reason>`.
    public var health: String
    public var lastFeedback: String?
    public var sessionID: String?
    /// While browsing presets in the idle menu: the one offered.
    public var offeredPreset: TrainingInterval?
    /// The pairing request shown on the device (the oldest waiting): who asks and from where. Shown in
    /// every state, a session's too, though only a long press in idle approves it.
    public var pairingRequest: PairingRequester?
    /// In idle (and while browsing presets): what a tap — or a start request without a configuration —
    /// starts now, as the daemon decides it (nil during a session and once stopped).
    public var nextSession: NextSession?
    /// The last completed session, for glanceable surfaces (the complication/widget analogue): its
    /// local date, interval and Time Acuity score. Filled by whoever publishes the state.
    public var lastSession: LastSession?
    /// The `glanceable-privacy` setting: the file withholds results (`GlanceablePrivacy` decides which).
    /// A member of the value, so turning the switch re-publishes the file at once.
    public var glanceablePrivacy = false

    /// The last completed session as the state file shows it.
    public struct LastSession: Hashable, Sendable {
        /// The session's local day, `YYYY-MM-DD`.
        public var date: String
        public var interval: TrainingInterval
        /// Nil for a session without attempts (Passive).
        public var timeAcuityScore: Int?

        public init(date: String, interval: TrainingInterval, timeAcuityScore: Int?) {
            self.date = date
            self.interval = interval
            self.timeAcuityScore = timeAcuityScore
        }
    }

    /// The session an idle tap starts: mode, interval and its count (attempts or repetitions).
    public struct NextSession: Hashable, Sendable {
        public var mode: SessionMode
        public var interval: TrainingInterval
        public var count: Int

        public init(mode: SessionMode, interval: TrainingInterval, count: Int) {
            self.mode = mode
            self.interval = interval
            self.count = count
        }

        public init(_ configuration: SessionConfiguration) {
            self.init(mode: configuration.mode, interval: configuration.interval, count: configuration.plannedCount)
        }
    }

    public init(state: Name, board: String, health: String) {
        self.state = state
        self.board = board
        self.health = health
    }

    /// The file's JSON. `updated` is when it was written; `pid` lets a reader tell a stale file from a
    /// running device.
    public func json(updated: WallTime, pid: Int32) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("version", .int(Self.formatVersion)),
            ("state", .string(state.rawValue)),
            ("board", .string(board)),
        ]
        func add(_ key: String, _ value: JSONValue?) { members.append((key, value ?? .null)) }
        add("mode", mode.map { .string($0.rawValue) })
        add("interval", interval.map { .string($0.description) })
        add("interval_seconds", interval.map { .int($0.seconds) })
        add("attempt", attempt.map { .int($0) })
        add("attempt_count", attemptCount.map { .int($0) })
        add("repetitions_done", repetitionsDone.map { .int($0) })
        add("repetition_count", repetitionCount.map { .int($0) })
        add("next_boundary", nextBoundary.map { .string($0.iso8601) })
        add("fear_sound", fearSound.map { .string($0) })
        add("health", .string(health))
        add("last_feedback", lastFeedback.map { .string($0) })
        add("session_id", sessionID.map { .string($0) })
        add("offered_preset", offeredPreset.map { .string($0.description) })
        add("pairing_request", pairingRequest.map { .object([("name", .string($0.name)), ("address", .string($0.address))]) })
        add("next_session", nextSession.map { next in
            .object([
                ("mode", .string(next.mode.rawValue)),
                ("interval", .string(next.interval.description)),
                ("interval_seconds", .int(next.interval.seconds)),
                ("count", .int(next.count)),
            ])
        })
        add("last_session", lastSession.map { last in
            .object([
                ("date", .string(last.date)),
                ("interval", .string(last.interval.description)),
                ("interval_seconds", .int(last.interval.seconds)),
                ("time_acuity_score", last.timeAcuityScore.map { .int($0) } ?? .null),
            ])
        })
        add(GlanceablePrivacy.member, .bool(glanceablePrivacy))
        add("updated", .string(updated.iso8601))
        add("pid", .int(Int(pid)))
        return GlanceablePrivacy.shown(.object(members), hidden: glanceablePrivacy)
    }
}

extension RuntimeState.LastSession {
    /// A stored session as the state file shows it (the store's newest completed one).
    public init(_ session: ProgressReport.SessionLine) {
        self.init(date: session.startedAt.localDayText, interval: session.interval, timeAcuityScore: session.timeAcuityScore)
    }

    /// The session just finished, as the store will list it, when it completed (nil when it was
    /// discarded or interrupted: those never become the last session). Its day is its start's through
    /// the session's own anchor, and the score is kept only when there were attempts, as the store
    /// keeps them, so the file says the same before and after the store is read again.
    public init?(finished outcome: SessionOutcome, anchor: WallClockAnchor) {
        guard outcome.status == .completed else { return nil }
        let scored = outcome.mode.usesAttempts && !outcome.attempts.isEmpty
        self.init(date: anchor.wallTime(at: outcome.startedAt).localDayText, interval: outcome.configuration.interval,
                  timeAcuityScore: scored ? outcome.metrics.timeAcuityScore : nil)
    }
}

extension RuntimeState {
    /// The state file's `state` values: a contract with every reader (`status`, displays, the
    /// companion), so a type rather than loose strings.
    public enum Name: String, Hashable, Sendable, CaseIterable {
        case idle = "Idle"
        /// Browsing presets in the idle menu.
        case configuring = "Configuring"
        case waitingForStart = "WaitingForStart"
        case attemptRunning = "AttemptRunning"
        case feedbackFlash = "FeedbackFlash"
        case passiveRunning = "PassiveRunning"
        case sessionSummary = "SessionSummary"
        case completed = "Completed"
        case aborted = "Aborted"
        case interrupted = "Interrupted"
        /// The program has stopped.
        case stopped = "Stopped"

        /// The name of a session's phase.
        public init(_ phase: SessionPhase) {
            switch phase {
            case .waitingForStart: self = .waitingForStart
            case .attemptRunning: self = .attemptRunning
            case .feedbackFlash: self = .feedbackFlash
            case .passiveRunning: self = .passiveRunning
            case .sessionSummary: self = .sessionSummary
            case .completed: self = .completed
            case .aborted: self = .aborted
            case .interrupted: self = .interrupted
            }
        }
    }
}
