import ChronoCore
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
        lines.append("battery: \(board.battery?.description ?? "none (no battery section: nothing is read, no battery rules apply)")")
        lines.append("libgpiod: this build uses API v\(LibgpiodAPI.version)")
        return lines.joined(separator: "\n")
    }

    /// The same, as JSON for `board show --json`.
    var json: JSONValue {
        func line(_ chip: String, _ line: GpioLineReference, activeLow: Bool) -> [(String, JSONValue)] {
            [("chip", .string(chip)), ("line", .string("\(line)")), ("active_low", .bool(activeLow))]
        }
        func button(_ button: ButtonConfiguration) -> JSONValue {
            switch button.driver {
            case .terminal:
                return .object([("driver", .string("terminal")), ("debounce_ms", .int(button.debounceMilliseconds))])
            case .gpiod(let input):
                return .object([("driver", .string("gpiod"))] + line(input.chip, input.line, activeLow: input.activeLow)
                               + [("bias", .string(input.bias.rawValue)), ("debounce_ms", .int(button.debounceMilliseconds))])
            case .evdev(let input):
                return .object([("driver", .string("evdev")), ("device", .string("\(input.device)")), ("key", .string(input.keyName)), ("grab", .bool(input.grab)),
                                ("key_code", .int(Int(input.keyCode))), ("debounce_ms", .int(button.debounceMilliseconds))])
            }
        }
        var motor: [(String, JSONValue)] = [("safe_max_on_ms", .int(board.motor.safeMaxOnMilliseconds)),
                                             ("onset_latency_ms", .int(board.motor.onsetLatencyMilliseconds))]
        switch board.motor.driver {
        case .terminal: motor.insert(("driver", .string("terminal")), at: 0)
        case .gpiod(let output): motor = [("driver", .string("gpiod"))] + line(output.chip, output.line, activeLow: output.activeLow) + motor
        }
        let sound: JSONValue = .object([
            ("driver", .string(board.sound.driver == .none ? "none" : "alsa")),
            ("device", .string(board.sound.device)), ("mixer_device", .string(board.sound.mixerDevice)),
            ("mixer_control", board.sound.mixerControl.map { .string($0) } ?? .null),
            ("period_frames", .int(board.sound.periodFrames)), ("sample_rate", .int(board.sound.sampleRate)),
            ("loudness", .double(board.sound.loudness)),
        ])
        return .object([
            ("board", .string(board.name)), ("file", .string(board.sourcePath)), ("description", .string(board.description)),
            ("long_press_ms", .int(board.longPressMilliseconds)), ("button", button(board.button)),
            ("second_button", board.secondButton.map(button) ?? .null), ("motor", .object(motor)),
            ("led", board.led.map { .object(line($0.chip, $0.line, activeLow: $0.activeLow)) } ?? .null),
            ("sound", sound), ("battery", board.battery.map(Self.json) ?? .null), ("libgpiod_api", .int(Int(LibgpiodAPI.version))),
        ])
    }

    static func json(_ battery: BatteryConfiguration) -> JSONValue {
        switch battery {
        case .powerSupply(let name):
            return .object([("driver", .string("power_supply")), ("name", .string(name))])
        case .hwmon(let name, let input, let curve):
            let points = curve.points.map { JSONValue.object([("millivolts", .int($0.millivolts)), ("percent", .int($0.percent))]) }
            return .object([("driver", .string("hwmon")), ("name", .string(name)), ("input", .int(input)), ("curve", .array(points))])
        }
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
