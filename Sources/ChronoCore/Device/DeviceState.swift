/// What the device is doing (SPEC §7): the one value the runtime publishes, the glanceable state file
/// writes and the API serves (`GET /device`'s `device`, each `state` event). Versioned and small:
/// enough for a status display, a widget or the companion to mirror the device without talking to it.
///
/// Equality ignores nothing: the loop publishes a new state only when this value changes, so the file
/// is written on state changes and never on a timer. The loop leaves `updated` nil; whoever hands the
/// state on stamps it (the state file's writer, the runtime's event hub).
public struct DeviceState: Hashable, Sendable {
    /// The format's version; bumped when a key is added or changes meaning (2: `pairing_request`;
    /// 3: `next_session`, `glanceable_privacy`; 4: `study`, `next_session.in_study`,
    /// `last_session.results_withheld`; 5: `update`).
    public static let formatVersion = 5

    /// What the device is doing (the `state` member).
    public var state: Name
    /// The board's name; nil only where there is no device (`NoDevice`, or a daemon whose loop has
    /// not published yet).
    public var board: String?
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
    /// The health log: `on`, `off` or `failing: <reason>`; nil where there is no device.
    public var health: String?
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
    /// The assigned study, where the participant stands (`StudyStanding.line`); nil when no study is
    /// assigned. In every state, a session's too.
    public var study: Study?
    /// The `glanceable-privacy` setting: the state file withholds results (`GlanceablePrivacy` decides
    /// which). A member of the value, so turning the switch re-publishes the file at once.
    public var glanceablePrivacy = false
    /// The battery: level, charging state, which threshold it has reached and why no session starts;
    /// nil on a board without a battery (and before its first reading).
    public var battery: BatteryStatus?
    /// Today's completed sessions against the daily goal (`DeviceState.Today`); nil outside the daemon.
    public var today: Today?
    /// The latest reminder while what it reminds of is still due (`ReminderRules.outstanding`): what the
    /// page's Home, `status` and the status bar show.
    public var reminder: String?
    /// The card's last update of its root (`UpdateRecord`) in words, with the running version and slot;
    /// nil where nothing was ever updated (and off the card).
    public var update: Update?
    /// When the state was published, on the wall clock (what a page compares with its own clock to
    /// see how long an event took to reach it). Nil in the value the loop compares.
    public var updated: WallTime?

    public init(state: Name, board: String? = nil, health: String? = nil) {
        self.state = state
        self.board = board
        self.health = health
    }

    /// Whether a session is in progress (the API's `session_in_progress`).
    public var sessionInProgress: Bool { state.isSessionPhase }

    /// This state as published at `updated`.
    public func published(at updated: WallTime) -> DeviceState {
        var stamped = self
        stamped.updated = updated
        return stamped
    }

    /// The last completed session as glanceable surfaces show it.
    public struct LastSession: Hashable, Sendable {
        /// The session's local day, `YYYY-MM-DD`.
        public var date: String
        public var interval: TrainingInterval
        /// Nil for a session without attempts (Passive), and while its results are withheld.
        public var timeAcuityScore: Int?
        /// A study session whose block withholds feedback and has not ended (or never reveals): its
        /// score is not shown (`StudyStanding.resultsShown`).
        public var resultsWithheld = false

        public init(date: String, interval: TrainingInterval, timeAcuityScore: Int?, resultsWithheld: Bool = false) {
            self.date = date
            self.interval = interval
            self.timeAcuityScore = resultsWithheld ? nil : timeAcuityScore
            self.resultsWithheld = resultsWithheld
        }

        /// The same session with its score withheld.
        public var withheld: LastSession {
            LastSession(date: date, interval: interval, timeAcuityScore: nil, resultsWithheld: true)
        }
    }

    /// The session an idle tap starts: mode, interval and its count (attempts or repetitions).
    public struct NextSession: Hashable, Sendable {
        public var mode: SessionMode
        public var interval: TrainingInterval
        public var count: Int
        /// Whether it is the assigned study's next planned session (false: the person's own, outside
        /// any study).
        public var inStudy = false

        public init(mode: SessionMode, interval: TrainingInterval, count: Int, inStudy: Bool = false) {
            self.mode = mode
            self.interval = interval
            self.count = count
            self.inStudy = inStudy
        }

        public init(_ configuration: SessionConfiguration) {
            self.init(mode: configuration.mode, interval: configuration.interval, count: configuration.plannedCount)
        }
    }

    /// The `state` values: a contract with every reader (`status`, displays, the companion), so a type
    /// rather than loose strings.
    public enum Name: String, Hashable, Sendable, CaseIterable {
        case idle = "Idle"
        /// Browsing presets in the idle menu.
        case configuring = "Configuring"
        /// Reproduction: the device presents the interval.
        case presenting = "Presenting"
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
        /// The API is served without a device (`companion --data-dir D`).
        case noDevice = "NoDevice"

        /// The name of a session's phase.
        public init(_ phase: SessionPhase) {
            switch phase {
            case .presenting: self = .presenting
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

        /// The phases of a session in progress (its summary included: it is not saved as over yet).
        public var isSessionPhase: Bool {
            switch self {
            case .presenting, .waitingForStart, .attemptRunning, .feedbackFlash, .passiveRunning, .sessionSummary: return true
            case .idle, .configuring, .completed, .aborted, .interrupted, .stopped, .noDevice: return false
            }
        }
    }
}

extension DeviceState.LastSession {
    /// A stored session as glanceable surfaces show it (the store's newest completed one).
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
