/// Which input device a board file means: a path (best a stable `/dev/input/by-id/…` link), part of
/// the device's name, or the first full keyboard.
public enum EvdevDeviceReference: Sendable, Equatable, CustomStringConvertible {
    /// `/dev/input/by-id/usb-…-event-kbd` or `/dev/input/event3`.
    case path(String)
    /// A device whose kernel name contains this text (case ignored), e.g. `FootSwitch`.
    case name(String)
    /// The lowest-numbered event device that is a full keyboard and has the key.
    case firstKeyboard

    public var description: String {
        switch self {
        case .path(let path): return path
        case .name(let name): return "the device named like \"\(name)\""
        case .firstKeyboard: return "the first keyboard"
        }
    }
}

/// The button's input device and key, as a board file sets them (`button.driver: evdev`).
public struct EvdevInput: Sendable, Equatable {
    public var device: EvdevDeviceReference
    /// The EV_KEY code that is the button (default KEY_SPACE).
    public var keyCode: UInt16
    /// Take the device exclusively (EVIOCGRAB) so its keys do not also reach other programs.
    public var grab: Bool

    public init(device: EvdevDeviceReference, keyCode: UInt16, grab: Bool) {
        self.device = device
        self.keyCode = keyCode
        self.grab = grab
    }

    /// `space`, `KEY_F13` …: the key's board-file name.
    public var keyName: String { EvdevKeyName.boardName(of: keyCode) }
}
