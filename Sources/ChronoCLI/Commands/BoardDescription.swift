import ChronoHardware

/// A board configuration as the text `board show` prints: every value, defaults included.
struct BoardDescription {
    let board: BoardConfiguration

    init(_ board: BoardConfiguration) { self.board = board }

    var text: String {
        var lines = [
            "board: \(board.name)",
            "file: \(board.sourcePath)",
            "description: \(board.description)",
            "long press: \(board.longPressMilliseconds) ms",
            "button: \(Self.describe(board.button))",
        ]
        if let second = board.secondButton { lines.append("second button: \(Self.describe(second))") }
        lines.append("motor: \(Self.describe(board.motor))")
        if let led = board.led { lines.append("led: \(Self.describe(led))") }
        lines.append("sound: \(Self.describe(board.sound))")
        lines.append("libgpiod: this build uses API v\(LibgpiodAPI.version)")
        return lines.joined(separator: "\n")
    }

    static func describe(_ button: ButtonConfiguration) -> String {
        switch button.driver {
        case .terminal:
            return "terminal keyboard (space or enter), debounce \(button.debounceMilliseconds) ms"
        case .gpiod(let line):
            return "gpiod chip \(line.chip), \(line.line), \(line.activeLow ? "active-low" : "active-high"), "
                + "bias \(line.bias.rawValue), debounce \(button.debounceMilliseconds) ms"
        case .evdev(let input):
            return "evdev \(input.device), key \(input.keyName) (\(EvdevKeyName.name(of: input.keyCode))), "
                + "\(input.grab ? "grabbed (its keys reach no other program)" : "not grabbed"), debounce \(button.debounceMilliseconds) ms"
        }
    }

    /// Where an evdev button's device reference leads on this machine right now, or why nowhere.
    static func resolution(of button: ButtonConfiguration, role: String,
                           finder: EvdevDeviceFinder = EvdevDeviceFinder()) -> String? {
        guard case .evdev(let input) = button.driver else { return nil }
        do {
            let path = try finder.resolve(input.device, keyCode: input.keyCode, role: role)
            let device = finder.scan(keyCode: input.keyCode).devices.first { $0.path == path || $0.byIdPaths.contains(path) }
            let node = device.map { $0.path == path ? ", \"\($0.name)\"" : " = \($0.path), \"\($0.name)\"" } ?? ""
            return "\(role) device: \(path)\(node)"
        } catch {
            return "\(role) device: not found now: \(error.detail). Fix: \(error.fix)"
        }
    }

    static func describe(_ motor: MotorConfiguration) -> String {
        let limits = "safe maximum on \(motor.safeMaxOnMilliseconds) ms, onset latency \(motor.onsetLatencyMilliseconds) ms"
        switch motor.driver {
        case .terminal: return "terminal (pulses shown as text), \(limits)"
        case .gpiod(let line): return "\(describe(line)), \(limits)"
        }
    }

    static func describe(_ line: GpioOutputLine) -> String {
        "gpiod chip \(line.chip), \(line.line), \(line.activeLow ? "active-low" : "active-high")"
    }

    static func describe(_ sound: SoundConfiguration) -> String {
        switch sound.driver {
        case .none:
            return "none (Fear Mode behaves like Challenge Mode)"
        case .alsa:
            let mixer = sound.mixerControl.map { "mixer \(sound.mixerDevice) control \"\($0)\"" } ?? "no mixer control"
            let periodMs = Double(sound.periodFrames) * 1000 / Double(sound.sampleRate)
            return "ALSA \(sound.device), \(mixer), \(sound.sampleRate) Hz, period \(sound.periodFrames) frames "
                + "(\((periodMs * 10).rounded() / 10) ms), loudness \(Int((sound.loudness * 100).rounded()))% of full scale"
        }
    }
}
