import CEvdev

/// Key names as board files write them (`space`, `KEY_SPACE`, `btn_0`, `f13`) and the EV_KEY codes
/// libevdev knows them by.
public enum EvdevKeyName {
    /// The code for a board file's key name, or nil when libevdev knows no such key. A bare name gets
    /// the `KEY_` prefix; case does not matter.
    public static func code(for name: String) -> UInt16? {
        let upper = name.uppercased()
        let candidates = upper.hasPrefix("KEY_") || upper.hasPrefix("BTN_") ? [upper] : ["KEY_" + upper, "BTN_" + upper]
        for candidate in candidates {
            let code = chrono_evdev_key_code(candidate)
            if code >= 0 { return UInt16(code) }
        }
        return nil
    }

    /// `KEY_SPACE` for 57; the number when libevdev has no name for it.
    public static func name(of code: UInt16) -> String {
        chrono_evdev_key_name(UInt32(code)).map { String(cString: $0) } ?? "key \(code)"
    }

    /// The board-file spelling: `space` for KEY_SPACE, `btn_0` for BTN_0.
    public static func boardName(of code: UInt16) -> String {
        let full = name(of: code)
        return full.hasPrefix("KEY_") ? String(full.dropFirst(4)).lowercased() : full.lowercased()
    }
}
