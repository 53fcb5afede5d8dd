import ChronoCore

/// The live device as the API sees it: a snapshot of what it is doing, actions it executes, and its
/// events. The daemon provides one (an adapter over its runtime handle); `companion --data-dir D`
/// serves `NoDevice`.
///
/// Every method must return without waiting on the real-time loop: `status()` reads a snapshot,
/// `perform` sends a message to the loop's mailbox and awaits its answer off the loop, and `events()`
/// streams what the loop published. The API never touches the loop otherwise.
public protocol DeviceControl: Sendable {
    /// What the device is doing now.
    func status() -> DeviceStatus
    /// The board and its parts as they were opened (onboarding's setup status).
    func setup() -> DeviceSetup
    /// Asks the device to do something; the device decides and answers.
    func perform(_ action: DeviceAction) async -> DeviceActionResult
    /// Live events from now on, until the consumer stops iterating (then the stream is finished).
    func events() -> AsyncStream<DeviceEvent>
}

/// Something a companion asks the device to do (the App Intents analogue: the device executes).
public enum DeviceAction: Hashable, Sendable {
    /// Start a session.
    case start(StartRequest)
    /// End the Passive session in progress (it is saved as completed with the boundaries done).
    case endPassive
    /// Discard the session in progress (saved as aborted, as the device's own abort gesture does).
    case discard
    /// Ask the person at the device to approve pairing this companion (its name and the address it
    /// asked from, both shown on the device): the device announces it with the pairing-request cue and
    /// answers `.done` when the person approves it with a long press in idle, or
    /// `.refused(.pairingNotApproved, …)` when `window` passes (counted from when the device shows it)
    /// without one. The request never blocks the device: sessions start, end and are discarded as usual.
    case approvePairing(PairingRequester, window: TimeSpan)
}

/// Which session to start.
public enum StartRequest: Hashable, Sendable {
    /// The configuration used last (or the settings' defaults when there is none).
    case lastConfiguration
    /// The default mode at this interval (a preset, as the device's idle menu offers).
    case preset(TrainingInterval)
    /// Everything explicit; `count` nil takes the settings' default for the mode.
    case explicit(mode: SessionMode, interval: TrainingInterval, count: Int?)
}

/// The device's answer to an action.
public enum DeviceActionResult: Hashable, Sendable {
    /// Done (or, for `start`, the session is starting); `message` says what happened in words.
    case done(message: String)
    /// Not done, with a reason a person can act on.
    case refused(DeviceRefusal, reason: String)
}

/// Why the device did not do what was asked. Each has its HTTP status in `APIError`.
public enum DeviceRefusal: String, Hashable, Sendable {
    /// There is no device here (`companion --data-dir D`).
    case noDevice = "no_device"
    /// `end` or `discard` with no session running.
    case nothingRunning = "nothing_running"
    /// `start` while a session is running.
    case sessionRunning = "session_running"
    /// `end` during a Challenge or Fear session (only Passive has an end; the others are discarded).
    case notPassive = "not_passive"
    /// Fear asked for without the opt-in.
    case fearNotEnabled = "fear_not_enabled"
    /// The configuration asked for is not valid (the reason says why).
    case invalidConfiguration = "invalid_configuration"
    /// The device is busy with something that cannot be interrupted (e.g. too many pairing requests wait).
    case busy = "busy"
    /// Nobody approved the pairing on the device within its window.
    case pairingNotApproved = "pairing_not_approved"
}

/// Something that happened on the device, as live events stream it (Server-Sent Events).
public enum DeviceEvent: Hashable, Sendable {
    /// The glanceable state changed.
    case state(DeviceStatus)
    /// An attempt's feedback (Challenge/Fear) or a boundary (Passive), as the person got it.
    case feedback(DeviceFeedback)
    /// A session ended and was saved (or not: aborted, interrupted).
    case sessionFinished(sessionID: String, status: String)
}

/// One piece of feedback. Never carries the elapsed time while an attempt is running: it is sent
/// once the attempt has been answered.
public struct DeviceFeedback: Hashable, Sendable {
    public var sessionID: String?
    /// Attempt (or boundary) k of N.
    public var index: Int
    public var count: Int
    /// What the person was told, e.g. "late by 1.2 s (4 %) — green".
    public var text: String
    /// `green`, `yellow` or `red` for attempts; nil for Passive boundaries.
    public var zone: String?

    public init(sessionID: String?, index: Int, count: Int, text: String, zone: String?) {
        self.sessionID = sessionID
        self.index = index
        self.count = count
        self.text = text
        self.zone = zone
    }
}
