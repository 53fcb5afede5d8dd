/// The fixed cues (SPEC §2). Each is built from ticks and buzzes only, so none can equal an interval
/// pattern; feedback cues say the zone by the number of ticks (1 green, 2 yellow, 3 red) and the
/// direction by where the buzz falls: before the ticks for late, after them for early.
public enum HapticCue: Hashable, Sendable {
    /// The session is ready and waits for the first start press.
    case ready
    /// An attempt (or a Passive session) has started.
    case start
    /// Feedback after a tap.
    case feedback(ErrorZone, ErrorDirection)
    /// The session is done.
    case sessionDone
    /// A long press asks whether to discard the session: a second long press confirms.
    case abortConfirm
    /// The session was discarded.
    case discarded
    /// Something is wrong (a device fault the user must know about).
    case error
    /// A companion asks to pair: a long press while idle approves it. Unlike every other cue it
    /// begins and ends with a buzz, so it cannot be felt as the start of something the person did.
    case pairingRequest
    /// The device is up: its service has started and the button is armed (played once each time the
    /// daemon starts). One buzz, the only cue that is a single buzz: what the person switching the
    /// device on waits for.
    case deviceReady
    /// The device is up but the first-boot file (`chronoception.txt`) had problems: played instead of
    /// `deviceReady`. The error's five ticks, then the ready buzz ("something is wrong, but it trains").
    case setupProblem
    /// A press was recorded, in a session whose feedback is withheld (a feedback-off study block):
    /// four ticks, the same after every press, so it says "counted" and nothing about the error.
    case recorded
    /// One boundary of Reproduction's presented interval (its start or its end): a single 100 ms mark,
    /// played at an absolute deadline. The presented interval runs from one mark's onset to the next's.
    case presentationMark
    /// A study session has become due (a reminder; never played during a session): buzz, tick, buzz.
    case sessionDue
    /// A study waits for the person's consent, which the page asks for: played on the idle tap
    /// instead of starting anything. Tick, buzz, buzz, tick.
    case consentNeeded
    /// The battery has fallen to the low level (played once per discharge, never inside an attempt):
    /// buzz, buzz, tick.
    case lowBattery
    /// The battery is at the critical level: the session was saved and the device powers off. Four
    /// buzzes, the longest cue, played last.
    case batteryCritical

    public var pattern: HapticPattern {
        switch self {
        case .ready: return HapticPattern([.tick, .tick, .tick])
        case .start: return HapticPattern([.tick, .tick])
        case .feedback(let zone, let direction):
            let ticks = [HapticElement](repeating: .tick, count: zone.tickCount)
            switch direction {
            case .late: return HapticPattern([.buzz] + ticks)
            case .early: return HapticPattern(ticks + [.buzz])
            case .onTime: return HapticPattern(ticks)
            }
        case .sessionDone: return HapticPattern([.buzz, .buzz])
        case .abortConfirm: return HapticPattern([.tick, .buzz, .tick])
        case .discarded: return HapticPattern([.buzz, .buzz, .buzz])
        case .error: return HapticPattern([.tick, .tick, .tick, .tick, .tick])
        case .pairingRequest: return HapticPattern([.buzz, .tick, .tick, .buzz])
        case .deviceReady: return HapticPattern([.buzz])
        case .setupProblem: return HapticPattern(HapticCue.error.pattern.elements + HapticCue.deviceReady.pattern.elements)
        case .recorded: return HapticPattern([.tick, .tick, .tick, .tick])
        case .presentationMark: return HapticPattern([.mark])
        case .sessionDue: return HapticPattern([.buzz, .tick, .buzz])
        case .consentNeeded: return HapticPattern([.tick, .buzz, .buzz, .tick])
        case .lowBattery: return HapticPattern([.buzz, .buzz, .tick])
        case .batteryCritical: return HapticPattern([.buzz, .buzz, .buzz, .buzz])
        }
    }

    /// A stable name for logs and the effects timeline.
    public var name: String {
        switch self {
        case .ready: return "ready"
        case .start: return "start"
        case .feedback(let zone, let direction): return "feedback-\(zone.rawValue)-\(direction.rawValue)"
        case .sessionDone: return "session-done"
        case .abortConfirm: return "abort-confirm"
        case .discarded: return "discarded"
        case .error: return "error"
        case .pairingRequest: return "pairing-request"
        case .deviceReady: return "device-ready"
        case .setupProblem: return "setup-problem"
        case .recorded: return "recorded"
        case .presentationMark: return "presentation-mark"
        case .sessionDue: return "session-due"
        case .consentNeeded: return "consent-needed"
        case .lowBattery: return "low-battery"
        case .batteryCritical: return "battery-critical"
        }
    }

    /// Every cue, for uniqueness checks and documentation.
    public static var all: [HapticCue] {
        var cues: [HapticCue] = [.ready, .start, .sessionDone, .abortConfirm, .discarded, .error, .pairingRequest,
                                   .deviceReady, .setupProblem, .recorded,
                                   .presentationMark, .sessionDue, .consentNeeded, .lowBattery, .batteryCritical]
        for zone in ErrorZone.allCases {
            for direction in [ErrorDirection.early, .late] { cues.append(.feedback(zone, direction)) }
        }
        cues.append(.feedback(.green, .onTime))
        return cues
    }
}

extension ErrorZone {
    var tickCount: Int {
        switch self {
        case .green: return 1
        case .yellow: return 2
        case .red: return 3
        }
    }
}
