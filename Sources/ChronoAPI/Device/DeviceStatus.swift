import ChronoCore

/// The glanceable state of the device as the API serves it: the state file's content (SPEC §7), in
/// the API's own type so the API does not depend on the runtime. The daemon's adapter fills it from
/// its `RuntimeState` snapshot, field for field.
public struct DeviceStatus: Hashable, Sendable {
    /// The state file format this mirrors (`RuntimeState.formatVersion`).
    public var version: Int
    /// `Idle`, `Configuring`, a session phase (`WaitingForStart`, `AttemptRunning`, `FeedbackFlash`,
    /// `PassiveRunning`, `SessionSummary`, `Completed`, `Aborted`, `Interrupted`), `Stopped`, or
    /// `NoDevice` when the API is served without a device.
    public var state: String
    public var board: String?
    public var mode: SessionMode?
    public var interval: TrainingInterval?
    public var attempt: Int?
    public var attemptCount: Int?
    public var repetitionsDone: Int?
    public var repetitionCount: Int?
    public var nextBoundary: WallTime?
    /// Fear only: `audible`, `inaudible: <reason>` or `lost: <reason>`.
    public var fearSound: String?
    /// `on`, `off` or `failing: <reason>`.
    public var health: String?
    public var lastFeedback: String?
    public var sessionID: String?
    public var offeredPreset: TrainingInterval?
    /// The pairing request the device shows (the oldest waiting): the companion's name and address.
    public var pairingRequest: PairingRequester?
    /// In idle: what the device starts on a tap or on `start` without a configuration (the daemon's
    /// own answer, not worked out again here).
    public var nextSession: NextSession?
    /// When the device last changed state.
    public var updated: WallTime?

    /// The session the device starts next: mode, interval, and its count (attempts or repetitions).
    public struct NextSession: Hashable, Sendable {
        public var mode: SessionMode
        public var interval: TrainingInterval
        public var count: Int

        public init(mode: SessionMode, interval: TrainingInterval, count: Int) {
            self.mode = mode
            self.interval = interval
            self.count = count
        }
    }

    public init(version: Int = 1, state: String, board: String? = nil, mode: SessionMode? = nil, interval: TrainingInterval? = nil,
                attempt: Int? = nil, attemptCount: Int? = nil, repetitionsDone: Int? = nil, repetitionCount: Int? = nil,
                nextBoundary: WallTime? = nil, fearSound: String? = nil, health: String? = nil, lastFeedback: String? = nil,
                sessionID: String? = nil, offeredPreset: TrainingInterval? = nil, pairingRequest: PairingRequester? = nil,
                nextSession: NextSession? = nil, updated: WallTime? = nil) {
        self.version = version
        self.state = state
        self.board = board
        self.mode = mode
        self.interval = interval
        self.attempt = attempt
        self.attemptCount = attemptCount
        self.repetitionsDone = repetitionsDone
        self.repetitionCount = repetitionCount
        self.nextBoundary = nextBoundary
        self.fearSound = fearSound
        self.health = health
        self.lastFeedback = lastFeedback
        self.sessionID = sessionID
        self.offeredPreset = offeredPreset
        self.pairingRequest = pairingRequest
        self.nextSession = nextSession
        self.updated = updated
    }

    /// The state served when there is no device at all.
    public static let noDeviceState = "NoDevice"

    /// The session phases: while in one of these a session is in progress.
    public static let sessionStates: Set<String> = ["WaitingForStart", "AttemptRunning", "FeedbackFlash", "PassiveRunning", "SessionSummary"]

    /// Whether a session is in progress.
    public var sessionInProgress: Bool { Self.sessionStates.contains(state) }
}
