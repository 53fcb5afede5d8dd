import ChronoCore

/// A control action for the running device, from another thread (the companion's API, a test): posted
/// through the loop's mailbox with `DaemonHandle.request`, decided on the loop, answered off it.
public enum DaemonRequest: Hashable, Sendable {
    /// Start the configuration an idle tap would start ("Start Last Session").
    case startLast
    /// Start the last configuration with this interval, as picking a preset on the device does.
    case startPreset(TrainingInterval)
    /// Start this configuration; `count` is attempts (Challenge, Fear) or repetitions (Passive), nil
    /// for the settings' default. Fear needs the opt-in.
    case start(mode: SessionMode, interval: TrainingInterval, count: Int?)
    /// End the Passive session in progress, as a long press does (logged when long enough).
    case endPassive
    /// Discard the session in progress (aborted: never logged), as two long presses do.
    case discard
    /// Pairing approval: the request waits on the device (several queue, the oldest shown) and is
    /// announced by the pairing-request cue; a long press begun in idle after the cue approves it,
    /// and it expires unapproved `within` after it was shown. It never blocks a session: a tap still
    /// starts one, and while a session runs the request waits (it is never approved then).
    case approvePairing(PairingRequester, within: TimeSpan)
}

/// The loop's answer to a `DaemonRequest`.
public enum DaemonReply: Hashable, Sendable {
    /// A session started: its id and resolved configuration.
    case started(sessionID: String, configuration: SessionConfiguration)
    /// The Passive session was ended; `status` says whether it completed (or was aborted: no boundary yet).
    case ended(sessionID: String, status: SessionStatus)
    /// The session was discarded.
    case discarded(sessionID: String)
    /// The person long-pressed the button in idle: pairing approved.
    case pairingApproved
    /// The request does not apply now, and why.
    case refused(DaemonRefusal)
}

/// Why a request was refused; `description` is one sentence for the person.
public enum DaemonRefusal: Hashable, Sendable, CustomStringConvertible {
    /// A session is already running (its id).
    case sessionRunning(sessionID: String)
    /// No session is running.
    case nothingRunning
    /// Start asked for while the session that just ended shows its summary (a moment): it is saved, and
    /// the device is idle again when the summary is over. Not "already running": nothing runs.
    case sessionJustEnded(sessionID: String)
    /// End or discard asked for after the session ended (its summary showing): it is saved as `status`
    /// already, and nothing runs to end or discard.
    case sessionAlreadySaved(sessionID: String, status: SessionStatus, discard: Bool)
    /// Ending applies to Passive only; a Challenge or Fear session is discarded instead.
    case notPassive(SessionMode)
    /// Fear Mode is not opted into.
    case fearNotOptedIn
    /// The configuration is invalid (the core's message).
    case invalidConfiguration(String)
    /// Too many pairing requests wait already (`PairingQueue.capacity`).
    case pairingQueueFull
    /// Nobody approved the request in time (or the device stopped).
    case pairingRefused(String)
    /// The device is stopping.
    case stopping
    /// This loop takes no requests (a single-session command, the benchmark).
    case notADaemon

    public var description: String {
        switch self {
        case .sessionRunning(let id): return "A session is already running (\(id)); end or discard it first."
        case .nothingRunning: return "No session is running."
        case .sessionJustEnded(let id):
            return "The session that just ended (\(id)) is saved and the device is showing its summary; start again in a moment."
        case .sessionAlreadySaved(let id, let status, let discard):
            return "Nothing to \(discard ? "discard" : "end"): the session that just ended (\(id)) is already saved as \(status.rawValue)."
        case .notPassive(let mode): return "Only a Passive session can be ended; this \(mode.rawValue) session can be discarded instead."
        case .fearNotOptedIn: return "Fear Mode is not opted into: turn it on with `chronoception settings set fear-mode on`."
        case .invalidConfiguration(let message): return message
        case .pairingQueueFull: return "\(PairingQueue.capacity) pairing requests already wait for the device's button; try again when they are answered or expire."
        case .pairingRefused(let why): return "Pairing refused: \(why)."
        case .stopping: return "The device is stopping."
        case .notADaemon: return "This program runs one session and takes no requests; use `chronoception run`."
        }
    }
}
