/// Something that happened on the device, as the runtime's hub delivers it and the API streams it
/// (Server-Sent Events, named by `name`).
public enum DeviceEvent: Hashable, Sendable {
    /// The glanceable state changed (the same value the state file shows).
    case state(DeviceState)
    /// An attempt was measured: its feedback, as the person got it.
    case feedback(DeviceFeedback)
    /// A session finished. `recorded` is false for a session that was never started
    /// (`SessionOutcome.recordsNothing`), which leaves no row; aborted and interrupted ones are kept
    /// but never logged.
    case sessionFinished(sessionID: String, status: SessionStatus, recorded: Bool = true)

    /// The event's name (the SSE `event:`).
    public var name: String {
        switch self {
        case .state: return "state"
        case .feedback: return "feedback"
        case .sessionFinished: return "session_finished"
        }
    }

    /// The event's JSON (the SSE `data:`).
    public var json: JSONValue {
        switch self {
        case .state(let state): return state.apiJSON
        case .feedback(let feedback): return feedback.json
        case .sessionFinished(let id, let status, let recorded):
            return .object([("session_id", .string(id)), ("status", .string(status.rawValue)), ("recorded", .bool(recorded))])
        }
    }
}

/// One attempt's feedback. Never carries the elapsed time while an attempt is running: it is sent
/// once the attempt has been answered.
public struct DeviceFeedback: Hashable, Sendable {
    public var sessionID: String
    /// Attempt k of N.
    public var index: Int
    public var count: Int
    /// What the person was told, e.g. "late by 1.2 s (4 %) — green".
    public var text: String
    public var zone: ErrorZone

    public init(sessionID: String, index: Int, count: Int, text: String, zone: ErrorZone) {
        self.sessionID = sessionID
        self.index = index
        self.count = count
        self.text = text
        self.zone = zone
    }

    /// Attempt `measurement.index` of the session's `count`.
    public init(sessionID: String, count: Int, measurement: AttemptMeasurement) {
        self.init(sessionID: sessionID, index: measurement.index, count: count, text: measurement.feedbackText, zone: measurement.zone)
    }

    public var json: JSONValue {
        .object([
            ("session_id", .string(sessionID)),
            ("index", .int(index)),
            ("count", .int(count)),
            ("text", .string(text)),
            ("zone", .string(zone.rawValue)),
        ])
    }
}
