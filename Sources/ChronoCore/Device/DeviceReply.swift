/// The device's answer to a `DeviceAction`.
public enum DeviceReply: Hashable, Sendable {
    /// A session started: its id and resolved configuration.
    case started(sessionID: String, configuration: SessionConfiguration)
    /// The Passive session was ended; `status` says whether it completed (or was aborted: no boundary yet).
    case ended(sessionID: String, status: SessionStatus)
    /// The session was discarded.
    case discarded(sessionID: String)
    /// The person long-pressed the button in idle: pairing approved.
    case pairingApproved
    /// The action does not apply now, and why.
    case refused(DeviceRefusal)

    /// What happened, in one sentence for the person (the API's `message`, what `chronoception start`
    /// prints); for a refusal, its reason.
    public var message: String {
        switch self {
        case .started(let id, let configuration):
            return "Started a \(configuration.mode.rawValue) session at \(configuration.interval) (\(id))."
        case .ended(let id, let status): return "Ended the Passive session \(id): \(status.rawValue)."
        case .discarded(let id): return "Discarded the session \(id); it is not logged."
        case .pairingApproved: return "Approved on the device (a long press)."
        case .refused(let refusal): return refusal.description
        }
    }
}

/// Why the device did not do what was asked: `description` is one sentence a person can act on, and
/// `code` the API's error code (its HTTP status is `APIError`'s to say).
public enum DeviceRefusal: Hashable, Sendable, CustomStringConvertible {
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
    /// The study's next session is due but its consent text has not been answered (`StudyConsent`):
    /// no study session starts before acceptance; the device's page asks for it.
    case consentNeeded(protocolName: String)
    /// The battery is at or below the stop level (`BatteryMonitor.startRefusal`'s reason).
    case batteryLow(String)
    /// An update of the card holds sessions (`UpdateRecord.sessionRefusal`'s reason).
    case updating(String)
    /// The configuration is invalid (the core's message).
    case invalidConfiguration(String)
    /// Too many pairing requests wait already (`PairingQueue.capacity`).
    case pairingQueueFull
    /// Nobody approved the request in time (or the device stopped).
    case pairingRefused(String)
    /// The device is stopping.
    case stopping
    /// The daemon waits for its button (an input device unplugged) and has no loop to ask.
    case waitingForButton
    /// This loop takes no requests (a single-session command, the benchmark).
    case notADaemon
    /// A companion serving a data directory: there is no device to run a session.
    case noDevice
    /// A companion serving a data directory: there is no device button to approve pairing with.
    case noDeviceToPair

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
        case .consentNeeded(let name):
            return "The study \(name) asks for your consent before its sessions: open the device's page to read it and accept or decline. Your own sessions still run (a preset: `start --preset 30s`)."
        case .batteryLow(let reason): return reason
        case .updating(let reason): return "No session now: \(reason)"
        case .invalidConfiguration(let message): return message
        case .pairingQueueFull: return "\(PairingQueue.capacity) pairing requests already wait for the device's button; try again when they are answered or expire."
        case .pairingRefused(let why): return "Pairing refused: \(why)."
        case .stopping: return "The device is stopping."
        case .waitingForButton: return "The device is waiting for its button to be connected; try again when it is back."
        case .notADaemon: return "This program runs one session and takes no requests; use `chronoception run`."
        case .noDevice:
            return "No device is attached to this companion (it serves a data directory only). Control a session on the device running `chronoception run`."
        case .noDeviceToPair:
            return "There is no device button here to approve pairing. Make a key with `chronoception companion keys add NAME`, or open the login URL `chronoception companion` printed."
        }
    }

    /// The API's error codes: a contract with every client (the companion's pages, the control verbs).
    public enum Code: String, Hashable, Sendable, CaseIterable {
        case noDevice = "no_device"
        case nothingRunning = "nothing_running"
        case sessionRunning = "session_running"
        case notPassive = "not_passive"
        case fearNotEnabled = "fear_not_enabled"
        case invalidConfiguration = "invalid_configuration"
        /// Busy with something that cannot be interrupted now; try again in a moment.
        case busy = "busy"
        case pairingNotApproved = "pairing_not_approved"
        case consentNeeded = "consent_needed"
        case batteryLow = "battery_low"
        /// An update of the card is installing or confirming itself.
        case updating = "updating"
    }

    /// The refusal's API error code.
    public var code: Code {
        switch self {
        case .sessionRunning: return .sessionRunning
        // In the summary window nothing runs to end or discard: it is saved already.
        case .nothingRunning, .sessionAlreadySaved: return .nothingRunning
        // Finishing the session that just ended (its summary): busy for a moment, not running one.
        case .sessionJustEnded, .pairingQueueFull, .stopping, .waitingForButton: return .busy
        case .notPassive: return .notPassive
        case .fearNotOptedIn: return .fearNotEnabled
        case .consentNeeded: return .consentNeeded
        case .batteryLow: return .batteryLow
        case .updating: return .updating
        case .invalidConfiguration: return .invalidConfiguration
        case .pairingRefused: return .pairingNotApproved
        case .notADaemon, .noDevice, .noDeviceToPair: return .noDevice
        }
    }
}
