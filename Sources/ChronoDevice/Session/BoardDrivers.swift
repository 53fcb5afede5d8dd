import ChronoCore
import ChronoHardware
import ChronoRuntime
import Foundation
import Synchronization

/// The drivers a board file asks for, opened and ready for the loop: the terminal drivers for the
/// `desktop` board, libgpiod for a Pi, ALSA (or nothing) for sound.
public final class BoardDrivers {
    let board: BoardConfiguration
    /// What the board was loaded by: the board name or file path as given (or the detected name), so
    /// that a reload reads the same file.
    let boardSource: String
    let button: ButtonInput
    let motor: MotorOutput
    /// Where lines for the person go (the terminal screen on the desktop, standard output otherwise).
    let console: LineOutput
    /// Forwards the desktop's quit key to the loop once it exists.
    let quitRelay: QuitRelay
    /// "press space" or "press the button".
    let pressHint: String
    /// The board, button and motor as opened, in `board check`'s words (the API's setup status).
    let setupParts: [DeviceSetup.Part]
    /// What the button is, for the first line of a session on a desktop board; nil for a GPIO button.
    var buttonIntroduction: String? {
        if let evdev = button as? EvdevButton {
            return "Board \(board.name): \(EvdevKeyName.boardName(of: evdev.keyCode)) on \"\(evdev.name)\" (\(evdev.path)) is the button, "
                + "read with the kernel's press and release times\(evdev.grabbed ? "; the device is grabbed" : ""). Ctrl-C quits."
        }
        if board.button.driver == .terminal {
            return "Board \(board.name): space or Enter is the button (hold for a long press), q quits."
        }
        return nil
    }

    /// The default board: `$CHRONOCEPTION_BOARD`, else the Raspberry Pi this is (from the device tree),
    /// else `desktop`.
    public static func defaultBoardName(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let name = environment["CHRONOCEPTION_BOARD"], !name.isEmpty { return name }
        let model = (try? String(contentsOfFile: "/proc/device-tree/model", encoding: .utf8)) ?? ""
        return BoardCatalog.boardName(forDeviceTreeModel: model) ?? "desktop"
    }

    /// The debounce a GPIO button is requested with (the kernel's, libgpiod v2): the resolver's, so
    /// `--debounce-ms` wins over the board file here as it does in the gesture recognizer.
    static func buttonDebounceMilliseconds(board: BoardConfiguration, flags: SessionFlags) -> Int {
        Int(SessionResolver.debounceMilliseconds(flags: flags, board: BoardTiming(board)))
    }

    /// Loads the board and opens its button and motor. Errors name the board file and the fix.
    /// `flags`: the command line's (its `--debounce-ms` is the GPIO button's kernel debounce).
    init(boardName: String?, flags: SessionFlags, bell: Bool, keyHoldMilliseconds: Int64, motorLog: String?) throws {
        let name = boardName ?? Self.defaultBoardName()
        boardSource = name
        board = try UsableBoard.load(name)
        quitRelay = QuitRelay()
        let relay = quitRelay
        var screen: TerminalScreen?
        var parts = [DeviceSetup.Part(name: "board", status: .ok, detail: BoardSetupText.board(board))]
        switch board.button.driver {
        case .terminal:
            let terminalScreen = TerminalScreen()
            screen = terminalScreen
            button = try TerminalButton(
                holdModel: KeyHoldModel(firstRepeatWindow: keyHoldMilliseconds * 1_000_000),
                onQuit: { relay.stop(reason: "quit key") })
            pressHint = "press space"
            parts.append(DeviceSetup.Part(name: "button", status: .info, detail: BoardSetupText.terminalButton))
        case .gpiod(let line):
            let debounce = Self.buttonDebounceMilliseconds(board: board, flags: flags)
            let gpio = try GpiodButton(line: line, debounceMilliseconds: debounce)
            button = gpio
            pressHint = "press the button"
            parts.append(DeviceSetup.Part(name: "button", status: .ok,
                                          detail: BoardSetupText.gpioButton(gpio, line: line, debounceMilliseconds: debounce)))
        case .evdev(let input):
            let evdev = try EvdevButton(input: input)
            button = evdev
            pressHint = input.keyCode == 57 ? "press space" : "press \(input.keyName)"
            parts.append(DeviceSetup.Part(name: "button", status: .ok, detail: BoardSetupText.evdevButton(evdev, input: input)))
        }
        var motor: MotorOutput
        switch board.motor.driver {
        case .terminal:
            let terminalScreen = screen ?? TerminalScreen()
            screen = terminalScreen
            motor = TerminalMotor(screen: terminalScreen, bell: bell)
            parts.append(DeviceSetup.Part(name: "motor", status: .info, detail: BoardSetupText.terminalMotor))
        case .gpiod(let line):
            do {
                let gpio = try GpiodMotor(line: line)
                motor = gpio
                parts.append(DeviceSetup.Part(name: "motor", status: .ok, detail: BoardSetupText.gpioMotor(gpio, line: line)))
            } catch {
                button.close()
                throw error
            }
        }
        if let motorLog { motor = LoggingMotor(wrapping: motor, logPath: motorLog) }
        self.motor = motor
        setupParts = parts
        if let screen {
            console = TerminalLines(screen: screen)
        } else {
            console = StandardOutputLines()
        }
    }

    /// The sound output for Fear Mode and whether it will be heard. A device that cannot be opened,
    /// is muted or at zero volume gives `.inaudible` with the reason (SPEC §2), never an error.
    func openSound() -> (output: SoundOutput?, status: SoundStatus) {
        switch board.sound.driver {
        case .none:
            return (nil, .inaudible(reason: "board \(board.name) has no sound (sound.driver: none)."))
        case .alsa:
            let sound = AlsaSound(configuration: board.sound)
            switch sound.checkAudibility() {
            case .inaudible(let reason):
                sound.close()
                return (nil, .inaudible(reason: reason))
            case .audible:
                do {
                    try sound.prepare()
                    return (sound, .audible)
                } catch {
                    sound.close()
                    return (nil, .inaudible(reason: "the sound device could not be prepared: \(error)"))
                }
            }
        }
    }

    /// The setup as the API reports it: the parts opened here, and the sound as the daemon left it
    /// (`sound` nil: not opened, because Fear Mode was not opted into when the daemon started).
    func setup(sound: SoundStatus?) -> DeviceSetup {
        let soundPart: DeviceSetup.Part
        switch (board.sound.driver, sound) {
        case (.none, _):
            soundPart = DeviceSetup.Part(name: "sound", status: .info, detail: BoardSetupText.noSound)
        case (.alsa, nil):
            soundPart = DeviceSetup.Part(name: "sound", status: .info,
                                         detail: "not opened: the sound is only for Fear Mode, which was not opted into when the device started",
                                         fix: "turn Fear Mode on in Settings and restart the device; `chronoception board check` plays the sound")
        case (.alsa, .audible?):
            soundPart = DeviceSetup.Part(name: "sound", status: .ok, detail: "audible: the mixer is on and the device is prepared for Fear Mode")
        case (.alsa, .inaudible(let reason)?):
            soundPart = DeviceSetup.Part(name: "sound", status: .warning, detail: reason, fix: BoardSetupText.soundDisabled)
        }
        return DeviceSetup(board: board.name, parts: setupParts + [soundPart],
                           note: "As the device opened its drivers when it started. `chronoception board check` on the device also pulses the motor, waits for a press and plays the sound.")
    }

    /// Switches the motor off and releases everything (restoring the terminal). Safe to call twice.
    func close() {
        motor.close()
        button.close()
    }

    /// Safe maximum and onset latency as the loop wants them.
    var motorSettings: (safeMaximumOn: TimeSpan, onsetLatency: TimeSpan) {
        (.milliseconds(Int64(board.motor.safeMaxOnMilliseconds)), .milliseconds(Int64(board.motor.onsetLatencyMilliseconds)))
    }
}

/// Console lines on the desktop terminal, kept apart from the motor's pulses by `TerminalScreen`.
final class TerminalLines: LineOutput {
    private let screen: TerminalScreen

    init(screen: TerminalScreen) { self.screen = screen }

    func writeLine(_ line: String) { screen.writeLine(line) }
}

/// The quit key is read by the button driver, which exists before the loop it must stop.
final class QuitRelay: Sendable {
    private let stopper = Mutex<LoopStopper?>(nil)

    func connect(_ loopStopper: LoopStopper) { stopper.withLock { $0 = loopStopper } }

    func stop(reason: String) {
        stopper.withLock { $0 }?.stop(reason: reason)
    }
}
