/// Something another thread asks the device to do (the companion's API, the control verbs through it,
/// a test; the App Intents analogue): the device decides and answers with a `DeviceReply`. The daemon
/// posts it through its loop's mailbox, decides on the loop and answers off it.
public enum DeviceAction: Hashable, Sendable {
    /// Start a session.
    case start(StartRequest)
    /// End the Passive session in progress, as a long press does (logged when long enough).
    case endPassive
    /// Discard the session in progress (aborted: never logged), as two long presses do.
    case discard
    /// Pairing approval: the request waits on the device (several queue, the oldest shown) and is
    /// announced by the pairing-request cue; a long press begun in idle after the cue approves it
    /// (`.pairingApproved`), and it expires unapproved `window` after it was shown
    /// (`.refused(.pairingRefused)`). It never blocks a session: a tap still starts one, and while a
    /// session runs the request waits (it is never approved then).
    case approvePairing(PairingRequester, window: TimeSpan)
}

/// Which session to start.
public enum StartRequest: Hashable, Sendable {
    /// The configuration an idle tap would start ("Start Last Session"; the settings' defaults when
    /// there is none).
    case lastConfiguration
    /// The last configuration with this interval, as picking a preset on the device does.
    case preset(TrainingInterval)
    /// Everything explicit; `count` is attempts (Challenge, Fear) or repetitions (Passive), nil for the
    /// settings' default. Fear asked for by name needs the opt-in.
    case explicit(mode: SessionMode, interval: TrainingInterval, count: Int?)
}
