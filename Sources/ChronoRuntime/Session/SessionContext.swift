import ChronoCore

/// What a session needs to know about where it runs, beyond its configuration.
public struct SessionContext: Sendable {
    /// The board's name (the health record's `device`).
    public var board: String
    /// How to say "press" on this board: `press space` on the desktop, `press the button` on a device.
    public var pressHint: String
    /// For Fear: whether sound was audible when the session started, and the reason when not.
    public var soundAudibility: SoundStatus
    /// The health log's status for the state file (`on`, `off`, `failing: …`).
    public var healthStatus: String
    /// The `glanceable-privacy` setting: the state file withholds results (`GlanceablePrivacy`).
    public var glanceablePrivacy = false
    /// The newest completed session the store knew when this one began, for the state file's
    /// `last_session` (SPEC §8); the session itself takes its place once it completes.
    public var lastSession: DeviceState.LastSession?

    public init(board: String, pressHint: String, soundAudibility: SoundStatus, healthStatus: String) {
        self.board = board
        self.pressHint = pressHint
        self.soundAudibility = soundAudibility
        self.healthStatus = healthStatus
    }
}

/// Whether Fear Mode's sound will come out (as the runtime knows it; the driver type stays in ChronoHardware).
public enum SoundStatus: Sendable, Equatable {
    case audible
    case inaudible(reason: String)

    public var isAudible: Bool { self == .audible }

    /// The state file's `fear_sound` text.
    public var text: String {
        switch self {
        case .audible: return "audible"
        case .inaudible(let reason): return "inaudible: \(reason)"
        }
    }
}
