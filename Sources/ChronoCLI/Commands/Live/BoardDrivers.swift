import ArgumentParser
import ChronoCore
import ChronoHardware
import ChronoRuntime
import Foundation
import Synchronization

/// The drivers a board file asks for, opened and ready for the loop: the terminal drivers for the
/// `desktop` board, libgpiod for a Pi, ALSA (or nothing) for sound.
final class BoardDrivers {
    let board: BoardConfiguration
    let button: ButtonInput
    let motor: MotorOutput
    /// Where lines for the person go (the terminal screen on the desktop, standard output otherwise).
    let console: LineOutput
    /// Forwards the desktop's quit key to the loop once it exists.
    let quitRelay: QuitRelay
    /// "press space" or "press the button".
    let pressHint: String
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
    static func defaultBoardName(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let name = environment["CHRONOCEPTION_BOARD"], !name.isEmpty { return name }
        let model = (try? String(contentsOfFile: "/proc/device-tree/model", encoding: .utf8)) ?? ""
        if model.contains("Raspberry Pi 5") { return "raspberry-pi-5" }
        if model.contains("Raspberry Pi 4") { return "raspberry-pi-4b" }
        if model.contains("Raspberry Pi Zero 2") { return "raspberry-pi-zero-2w" }
        return "desktop"
    }

    /// Loads the board and opens its button and motor. Errors name the board file and the fix.
    init(boardName: String?, bell: Bool, keyHoldMilliseconds: Int64, motorLog: String?) throws {
        let name = boardName ?? Self.defaultBoardName()
        board = try BoardCatalog.standard().load(name)
        quitRelay = QuitRelay()
        let relay = quitRelay
        var screen: TerminalScreen?
        switch board.button.driver {
        case .terminal:
            let terminalScreen = TerminalScreen()
            screen = terminalScreen
            button = try TerminalButton(
                holdModel: KeyHoldModel(firstRepeatWindow: keyHoldMilliseconds * 1_000_000),
                onQuit: { relay.stop(reason: "quit key") })
            pressHint = "press space"
        case .gpiod(let line):
            button = try GpiodButton(line: line, debounceMilliseconds: board.button.debounceMilliseconds)
            pressHint = "press the button"
        case .evdev(let input):
            button = try EvdevButton(input: input)
            pressHint = input.keyCode == 57 ? "press space" : "press \(input.keyName)"
        }
        var motor: MotorOutput
        switch board.motor.driver {
        case .terminal:
            let terminalScreen = screen ?? TerminalScreen()
            screen = terminalScreen
            motor = TerminalMotor(screen: terminalScreen, bell: bell)
        case .gpiod(let line):
            do {
                motor = try GpiodMotor(line: line)
            } catch {
                button.close()
                throw error
            }
        }
        if let motorLog { motor = LoggingMotor(wrapping: motor, logPath: motorLog) }
        self.motor = motor
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
