import Foundation
import Yams

/// Reads and validates a board file (YAML, see docs/HARDWARE.md for every key). Every problem becomes
/// a `BoardFileError` naming the file, the key and the fix; nothing invalid reaches the drivers.
public enum BoardFileParser {
    /// Reads the file at `path` and parses it.
    public static func load(path: String) throws(BoardFileError) -> BoardConfiguration {
        try parse(try BoardFileText.read(path: path), file: path)
    }

    /// Parses board YAML. `file` is used in messages and to check the `name` key against the file name.
    public static func parse(_ text: String, file: String) throws(BoardFileError) -> BoardConfiguration {
        // Size, depth, anchors and aliases first: Yams expands aliases as it composes.
        try BoardFileStructure.check(text, file: file)
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw BoardFileError(file: file, key: "", problem: "is empty",
                                     fix: "copy boards/desktop.yaml and edit it")
            }
            root = node
        } catch let error as BoardFileError {
            throw error
        } catch let error as YamlError {
            throw syntaxError(error, file: file)
        } catch {
            throw BoardFileError(file: file, key: "", problem: "is not valid YAML (\(error))",
                                 fix: "check indentation and `key: value` syntax")
        }

        var top = try YAMLMappingReader(node: root, file: file, path: "")
        let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let name = try top.string("name", fix: "add `name: \(stem)` (the file name without .yaml)")
        if name != stem {
            throw top.error("name", at: top.node("name"), "is \"\(name)\" but the file is \(stem).yaml",
                            fix: "set `name: \(stem)` or rename the file to \(name).yaml")
        }
        let description = try top.string("description", default: "", fix: "write a one-line description")
        let longPress = try top.int("long_press_ms", default: 1500, in: 300...10_000, unit: "ms",
                                    fix: "set the long-press threshold in milliseconds, e.g. `long_press_ms: 1500`")

        guard var buttonReader = try top.mapping("button") else {
            throw top.error("button", "is missing", fix: "add a `button:` section (see boards/raspberry-pi-4b.yaml)")
        }
        let button = try parseButton(&buttonReader)
        var secondButton: ButtonConfiguration?
        if var reader = try top.mapping("second_button") { secondButton = try parseButton(&reader) }

        // A desktop board with an input device as the button keeps the desktop's terminal motor and
        // ALSA sound unless it says otherwise.
        let desktopDefaults = if case .evdev = button.driver { true } else { false }
        let motor: MotorConfiguration
        if var motorReader = try top.mapping("motor") {
            motor = try parseMotor(&motorReader)
        } else if desktopDefaults {
            motor = MotorConfiguration(driver: .terminal, safeMaxOnMilliseconds: 1000, onsetLatencyMilliseconds: 0)
        } else {
            throw top.error("motor", "is missing", fix: "add a `motor:` section (see boards/raspberry-pi-4b.yaml)")
        }
        var led: GpioOutputLine?
        if var reader = try top.mapping("led") {
            led = try parseOutputLine(&reader)
            try reader.finish()
        }
        let sound: SoundConfiguration
        if var reader = try top.mapping("sound") {
            sound = try parseSound(&reader)
        } else if desktopDefaults {
            sound = SoundConfiguration(driver: .alsa, device: "default", mixerDevice: "default", mixerControl: "Master",
                                       periodFrames: 256, sampleRate: 48_000, loudness: 0.5)
        } else {
            sound = SoundConfiguration(driver: .none, device: "default", mixerDevice: "default", mixerControl: nil,
                                       periodFrames: 256, sampleRate: 48_000, loudness: 0.5)
        }
        var battery: BatteryConfiguration?
        if var reader = try top.mapping("battery") { battery = try BoardBatterySection.parse(&reader) }
        var loopback: GpioInputLine?
        if var reader = try top.mapping("loopback") { loopback = try parseLoopback(&reader) }
        try top.finish()

        let board = BoardConfiguration(name: name, description: description, sourcePath: file, button: button,
                                       secondButton: secondButton, motor: motor, led: led, sound: sound,
                                       longPressMilliseconds: longPress, battery: battery, loopback: loopback)
        try checkLinesAreDistinct(board, file: file)
        try checkDebounceIsShorterThanLongPress(board, file: file)
        return board
    }

    // MARK: - Sections

    private static func parseButton(_ reader: inout YAMLMappingReader) throws(BoardFileError) -> ButtonConfiguration {
        let driver = try reader.choice("driver", default: DriverKind.gpiod, among: [.gpiod, .terminal, .evdev])
        // Keyboards and HID switches debounce in their firmware: evdev key events do not bounce.
        let debounce = try reader.int("debounce_ms", default: driver == .evdev ? 0 : 10, in: 0...1000, unit: "ms",
                                      fix: "set how long contact bounce lasts, e.g. `debounce_ms: 10`")
        let result: ButtonConfiguration
        switch driver {
        case .terminal:
            result = ButtonConfiguration(driver: .terminal, debounceMilliseconds: debounce)
        case .evdev:
            result = ButtonConfiguration(driver: .evdev(try parseEvdevInput(&reader)), debounceMilliseconds: debounce)
        case .gpiod:
            let output = try parseOutputLine(&reader)
            let bias = try reader.choice("bias", default: GpioBias.pullUp, among: GpioBias.allCases)
            let line = GpioInputLine(chip: output.chip, line: output.line, activeLow: output.activeLow, bias: bias)
            result = ButtonConfiguration(driver: .gpiod(line), debounceMilliseconds: debounce)
        }
        try reader.finish()
        return result
    }

    /// The self-test's input: a line with a pull-down by default, so an unwired line reads inactive.
    private static func parseLoopback(_ reader: inout YAMLMappingReader) throws(BoardFileError) -> GpioInputLine {
        let output = try parseOutputLine(&reader)
        let bias = try reader.choice("bias", default: GpioBias.pullDown, among: GpioBias.allCases)
        try reader.finish()
        return GpioInputLine(chip: output.chip, line: output.line, activeLow: output.activeLow, bias: bias)
    }

    /// device or device_name, key and grab: the input device and key of `driver: evdev`.
    private static func parseEvdevInput(_ reader: inout YAMLMappingReader) throws(BoardFileError) -> EvdevInput {
        let deviceFix = "write a path such as `device: /dev/input/by-id/usb-…-event-kbd` (`ls -l /dev/input/by-id` lists them) "
            + "or `device: first-keyboard`; to match the device's name use `device_name:` instead"
        let device = try reader.optionalString("device", fix: deviceFix)
        let deviceName = try reader.optionalString("device_name", fix: "write part of the device's name, e.g. `device_name: FootSwitch` "
            + "(`chronoception board check` lists the devices it finds)")
        let reference: EvdevDeviceReference
        switch (device, deviceName) {
        case (_?, _?):
            throw reader.error("device_name", at: reader.node("device_name"), "conflicts with `device`",
                               fix: "keep `device:` (a path or first-keyboard) or `device_name:` (part of the name), not both")
        case (nil, let name?):
            reference = .name(name)
        case ("first-keyboard"?, nil), (nil, nil):
            reference = .firstKeyboard
        case (let path?, nil):
            guard path.hasPrefix("/") else {
                throw reader.error("device", at: reader.node("device"), "\"\(path)\" is neither a path nor first-keyboard", fix: deviceFix)
            }
            reference = .path(path)
        }
        let keyFix = "name the key the device sends: `key: space` (the default), `enter`, `b`, `f13`, `pagedown`, `KEY_…` or `BTN_…` "
            + "names as `evtest` shows them (`chronoception board check` names a key pressed instead)"
        var keyCode: UInt16 = 57 // KEY_SPACE
        if let keyNode = reader.node("key") {
            guard let text = keyNode.scalar?.string, !text.isEmpty else {
                throw reader.error("key", at: keyNode, "expected a key name, got \(YAMLMappingReader.describe(keyNode))", fix: keyFix)
            }
            guard let code = EvdevKeyName.code(for: text) else {
                throw reader.error("key", at: keyNode, "unknown key \"\(text)\"", fix: keyFix)
            }
            keyCode = code
        }
        let grab = try reader.bool("grab", default: false,
                                   fix: "write `grab: true` to keep the device's keys from other programs while in use, else false")
        return EvdevInput(device: reference, keyCode: keyCode, grab: grab)
    }

    private static func parseMotor(_ reader: inout YAMLMappingReader) throws(BoardFileError) -> MotorConfiguration {
        let driver = try reader.choice("driver", default: MotorDriverKind.gpiod, among: [.gpiod, .terminal])
        let safeMax = try reader.int("safe_max_on_ms", in: 10...10_000, unit: "ms",
                                     fix: "set the longest the motor may run in one go, e.g. `safe_max_on_ms: 1000`")
        let onset = try reader.int("onset_latency_ms", default: 0, in: 0...500, unit: "ms",
                                   fix: "set the motor's spin-up time, e.g. `onset_latency_ms: 25` (0 if unknown)")
        let result: MotorConfiguration
        switch driver {
        case .terminal:
            result = MotorConfiguration(driver: .terminal, safeMaxOnMilliseconds: safeMax, onsetLatencyMilliseconds: onset)
        case .gpiod:
            result = MotorConfiguration(driver: .gpiod(try parseOutputLine(&reader)), safeMaxOnMilliseconds: safeMax,
                                        onsetLatencyMilliseconds: onset)
        }
        try reader.finish()
        return result
    }

    /// chip, line and active_low: the part every GPIO section shares.
    private static func parseOutputLine(_ reader: inout YAMLMappingReader) throws(BoardFileError) -> GpioOutputLine {
        let chipFix = "name the gpiochip as `gpiochip0`, `/dev/gpiochip0` or its label (e.g. `pinctrl-bcm2711`); `gpiodetect` lists them"
        guard let chipNode = reader.node("chip") else { throw reader.error("chip", "is missing", fix: chipFix) }
        guard let chip = chipNode.scalar?.string, !chip.isEmpty, !chipNode.isTagged(.null) else {
            throw reader.error("chip", at: chipNode, "expected a chip name, got \(YAMLMappingReader.describe(chipNode))", fix: chipFix)
        }
        let lineFix = "give the line's offset (e.g. `line: 17`) or its name from `gpioinfo` (e.g. `line: GPIO17`)"
        guard let lineNode = reader.node("line") else { throw reader.error("line", "is missing", fix: lineFix) }
        let line: GpioLineReference
        if lineNode.isTagged(.int), let offset = lineNode.int {
            guard (0...1023).contains(offset) else {
                throw reader.error("line", at: lineNode, "offset \(offset) is out of range (0-1023)", fix: lineFix)
            }
            line = .offset(UInt32(offset))
        } else if let name = lineNode.scalar?.string, !name.isEmpty, lineNode.isTagged(.str) {
            line = .name(name)
        } else {
            throw reader.error("line", at: lineNode, "expected an offset or a line name, got \(YAMLMappingReader.describe(lineNode))", fix: lineFix)
        }
        let activeLow = try reader.bool("active_low", default: false,
                                        fix: "write `active_low: true` when the line reads low while active, else false")
        return GpioOutputLine(chip: chip, line: line, activeLow: activeLow)
    }

    private static func parseSound(_ reader: inout YAMLMappingReader) throws(BoardFileError) -> SoundConfiguration {
        let driver = try reader.choice("driver", default: SoundConfiguration.Driver.alsa, among: [.alsa, .none])
        let device = try reader.string("device", default: "default",
                                       fix: "name the ALSA PCM, e.g. `device: plughw:CARD=Headphones,DEV=0` (`aplay -L` lists them)")
        let mixerDevice = try reader.optionalString("mixer_device",
                                                    fix: "name the ALSA control device, e.g. `mixer_device: hw:CARD=Headphones`")
            ?? SoundConfiguration.mixerDevice(forPCM: device)
        let mixerControl = try reader.optionalString("mixer_control",
                                                     fix: "name the playback control (`amixer -D \(mixerDevice) scontrols`), e.g. `mixer_control: PCM`, or write `mixer_control: null`")
        let period = try reader.int("period_frames", default: 256, in: 16...8192, unit: "frames",
                                    fix: "use a small power of two, e.g. `period_frames: 256` (5.3 ms at 48 kHz)")
        let rate = try reader.int("sample_rate", default: 48_000, in: 8000...192_000, unit: "Hz",
                                  fix: "use a rate the device supports, e.g. `sample_rate: 48000`")
        let loudness = try reader.double("loudness", default: 0.5, in: 0.01...1.0,
                                         fix: "give the peak level as a fraction of full scale, e.g. `loudness: 0.5`")
        try reader.finish()
        return SoundConfiguration(driver: driver, device: device, mixerDevice: mixerDevice, mixerControl: mixerControl,
                                  periodFrames: period, sampleRate: rate, loudness: loudness)
    }

    // MARK: - Cross-checks

    private static func checkLinesAreDistinct(_ board: BoardConfiguration, file: String) throws(BoardFileError) {
        var used: [(key: String, chip: String, line: GpioLineReference)] = []
        if case .gpiod(let line) = board.button.driver { used.append(("button", line.chip, line.line)) }
        if case .gpiod(let line)? = board.secondButton?.driver { used.append(("second_button", line.chip, line.line)) }
        if case .gpiod(let line) = board.motor.driver { used.append(("motor", line.chip, line.line)) }
        if let led = board.led { used.append(("led", led.chip, led.line)) }
        if let loopback = board.loopback { used.append(("loopback", loopback.chip, loopback.line)) }
        for (index, entry) in used.enumerated() {
            if let earlier = used[..<index].first(where: { $0.chip == entry.chip && $0.line == entry.line }) {
                throw BoardFileError(file: file, key: "\(entry.key).line", problem: "uses \(entry.line) of \(entry.chip), which \(earlier.key) already uses",
                                     fix: "wire \(entry.key) to a free line and change `line:` to match")
            }
        }
    }

    /// A debounce as long as the long press would swallow every long press; sessions would refuse the
    /// board later, far from the file, so the file is refused here.
    private static func checkDebounceIsShorterThanLongPress(_ board: BoardConfiguration, file: String) throws(BoardFileError) {
        for (key, button) in [("button", board.button), ("second_button", board.secondButton)] {
            guard let button, button.debounceMilliseconds >= board.longPressMilliseconds else { continue }
            throw BoardFileError(file: file, key: "\(key).debounce_ms",
                                 problem: "is \(button.debounceMilliseconds) ms, not shorter than long_press_ms (\(board.longPressMilliseconds) ms)",
                                 fix: "debounce only covers contact bounce: use a few ms (e.g. `debounce_ms: 10`), well below long_press_ms")
        }
    }

    private static func syntaxError(_ error: YamlError, file: String) -> BoardFileError {
        switch error {
        case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
            return BoardFileError(file: file, key: "", line: mark.line, problem: "is not valid YAML at column \(mark.column): \(problem)",
                                  fix: "check the indentation (spaces, not tabs) and the `key: value` syntax on that line")
        case let .duplicatedKeysInMapping(duplicates, context):
            // Yams's own description quotes the whole file; name the keys and the mapping's line only.
            let keys = duplicates.sorted().prefix(5).map { "`\($0.count > 40 ? String($0.prefix(40)) + "…" : $0)`" }.joined(separator: ", ")
            return BoardFileError(file: file, key: "", line: context.mark.line,
                                  problem: "has \(duplicates.count == 1 ? "a key" : "keys") twice in one section: \(keys)",
                                  fix: "keep one of them")
        default:
            // Yams's description adds the offending line and a caret below it; the first line says it.
            let summary = String(describing: error).split(separator: "\n").first.map(String.init) ?? "unreadable"
            return BoardFileError(file: file, key: "", problem: "is not valid YAML (\(summary))",
                                  fix: "check the indentation (spaces, not tabs) and the `key: value` syntax")
        }
    }

    private static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }

    /// The drivers a button may use.
    private enum DriverKind: String {
        case gpiod
        case terminal
        case evdev
    }

    /// The drivers a motor may use.
    private enum MotorDriverKind: String {
        case gpiod
        case terminal
    }
}
