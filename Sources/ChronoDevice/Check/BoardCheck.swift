import ChronoCore
import ChronoHardware
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `board check`'s bring-up of a board on the real device: opens the lines, pulses the motor with the
/// start cue, waits for a press and says its kernel timestamp and how late it reached user space,
/// checks the mixer and plays the aversive sound (after a warning). Every failure comes with its fix;
/// sound problems are warnings (without sound Fear Mode behaves like Challenge Mode). The waits for
/// the press and the pulses' and the warning's sleeps are here, not in the command.
public struct BoardCheck {
    /// What the person asked of the check.
    public struct Options: Sendable {
        /// Seconds to wait for a button press.
        public var pressTimeout: Double
        /// Wait for a press at all.
        public var waitForPress: Bool
        /// Play the aversive sound (the mixer is checked either way).
        public var playSound: Bool
        /// Seconds of warning before the sound plays.
        public var soundWarning: Double

        public init(pressTimeout: Double, waitForPress: Bool, playSound: Bool, soundWarning: Double) {
            self.pressTimeout = pressTimeout
            self.waitForPress = waitForPress
            self.playSound = playSound
            self.soundWarning = soundWarning
        }
    }

    private let options: Options
    private let say: (String) -> Void

    /// `say`: where the check's lines go (standard output for the command).
    public init(options: Options, say: @escaping (String) -> Void) {
        self.options = options
        self.say = say
    }

    private var pressTimeout: Double { options.pressTimeout }
    private var soundWarning: Double { options.soundWarning }

    /// Checks every part of `configuration` in turn; the report counts what passed, failed and warned.
    public func run(_ configuration: BoardConfiguration) -> BringUpReport {
        var report = BringUpReport(say: say)
        checkMotor(configuration.motor, report: &report)
        checkButton(configuration.button, role: "button", report: &report)
        if let second = configuration.secondButton { checkButton(second, role: "second_button", report: &report) }
        if let led = configuration.led { checkLED(led, report: &report) }
        checkSound(configuration.sound, report: &report)
        return report
    }

    // MARK: - Motor

    private func checkMotor(_ motor: MotorConfiguration, report: inout BringUpReport) {
        guard case .gpiod(let line) = motor.driver else {
            report.info("motor: \(BoardSetupText.terminalMotor)")
            return
        }
        let output: GpiodMotor
        do {
            output = try GpiodMotor(line: line)
        } catch {
            report.fail("motor: \(error.detail)", fix: error.fix)
            return
        }
        defer { output.close() }
        report.pass("motor: \(BoardSetupText.gpioMotor(output, line: line)), requested off")
        let pattern = HapticCue.start.pattern
        let start = HardwareClock.monotonicNanoseconds() + 50_000_000
        let limit = Int64(motor.safeMaxOnMilliseconds) * 1_000_000
        var onSince: Int64?
        do {
            for edge in pattern.edges(startingAt: MonotonicInstant(nanoseconds: start)) {
                var at = edge.at.nanoseconds
                if !edge.on, let since = onSince { at = min(at, since + limit) } // never past the safe maximum
                HardwareClock.sleep(untilMonotonicNanoseconds: at)
                try output.set(on: edge.on)
                onSince = edge.on ? at : nil
            }
            report.pass("motor: played the start cue (\(pattern)): did you feel \(pattern.elements.count) short pulses?")
        } catch {
            try? output.set(on: false)
            report.fail("motor: switching the line failed: \(error)", fix: "check `dmesg`; the line may have been lost")
        }
    }

    // MARK: - Buttons

    private func checkButton(_ button: ButtonConfiguration, role: String, report: inout BringUpReport) {
        switch button.driver {
        case .terminal:
            report.info("\(role): \(BoardSetupText.terminalButton)")
        case .gpiod(let line):
            checkGpioButton(button, line: line, role: role, report: &report)
        case .evdev(let input):
            checkEvdevButton(input, role: role, report: &report)
        }
    }

    private func checkGpioButton(_ button: ButtonConfiguration, line: GpioInputLine, role: String, report: inout BringUpReport) {
        let input: GpiodButton
        do {
            input = try GpiodButton(line: line, debounceMilliseconds: button.debounceMilliseconds, role: role)
        } catch {
            report.fail("\(role): \(error.detail)", fix: error.fix)
            return
        }
        defer { input.close() }
        report.pass("\(role): \(BoardSetupText.gpioButton(input, line: line, debounceMilliseconds: button.debounceMilliseconds))")
        if let held = try? input.isPressed(), held {
            report.warn("\(role): reads as pressed right now", fix: "if it is not pressed, flip `\(role).active_low` in the board file")
        }
        guard options.waitForPress else { return }

        say("       Press the \(role.replacingOccurrences(of: "_", with: " ")) within \(Int(pressTimeout)) s…")
        let deadline = HardwareClock.monotonicNanoseconds() + Int64(pressTimeout * 1e9)
        guard let (press, readAt) = waitForEdge(.pressed, on: input, until: deadline) else {
            report.fail("\(role): no press within \(Int(pressTimeout)) s",
                        fix: "check the wiring (button between the line's pin and GND for active_low: true) with `gpiomon`; "
                            + "if presses show there, check `\(role).line` and `\(role).active_low`")
            return
        }
        report.pass(pressLine(role: role, press: press, readAt: readAt, secondsFormat: "%.9f", on: input))
    }

    /// An input device's key: the device found, then one press and release with their kernel stamps.
    private func checkEvdevButton(_ input: EvdevInput, role: String, report: inout BringUpReport) {
        let keyName = EvdevKeyName.name(of: input.keyCode)
        let scan = EvdevDeviceFinder().scan(keyCode: input.keyCode)
        for device in scan.devices where device.hasKey {
            report.info("\(role): input device with \(keyName): \(device.listing)")
        }
        let button: EvdevButton
        do {
            button = try EvdevButton(input: input, role: role)
        } catch {
            report.fail("\(role): \(error.detail)", fix: error.fix)
            return
        }
        defer { button.close() }
        report.pass("\(role): \(BoardSetupText.evdevButton(button, input: input))")
        if button.isPressed {
            report.warn("\(role): \(keyName) is held down right now", fix: "release it; if nothing is pressed, check `\(role).key`")
        }
        guard options.waitForPress else { return }

        say("       Press and release \(keyName) on \"\(button.name)\" within \(Int(pressTimeout)) s…")
        let deadline = HardwareClock.monotonicNanoseconds() + Int64(pressTimeout * 1e9)
        guard let (press, readAt) = waitForEdge(.pressed, on: button, until: deadline) else {
            if let other = button.lastOtherKeyPressed {
                report.fail("\(role): no \(keyName) within \(Int(pressTimeout)) s, but the device sent \(EvdevKeyName.name(of: other))",
                            fix: "set `\(role).key: \(EvdevKeyName.boardName(of: other))` in the board file")
            } else {
                report.fail("\(role): no press within \(Int(pressTimeout)) s",
                            fix: "check that \"\(button.name)\" is the device you pressed (`\(role).device`); `evtest \(button.path)` shows its events")
            }
            return
        }
        report.pass(pressLine(role: role, press: press, readAt: readAt, secondsFormat: "%.6f", on: button))
    }

    /// The press's kernel stamp and how late it reached user space, then the release (waited for up
    /// to 5 s). `secondsFormat`: libgpiod's stamps are nanoseconds, evdev's microseconds.
    private func pressLine(role: String, press: ButtonEdge, readAt: Int64, secondsFormat: String, on input: ButtonInput) -> String {
        let seconds = Double(press.monotonicNanoseconds) / 1e9
        let latency = Double(readAt - press.monotonicNanoseconds) / 1e6
        var text = "\(role): press at \(String(format: secondsFormat, seconds)) s (kernel timestamp, CLOCK_MONOTONIC), "
            + "in user space \(String(format: "%.3f", latency)) ms later"
        if let (release, _) = waitForEdge(.released, on: input, until: HardwareClock.monotonicNanoseconds() + 5_000_000_000) {
            text += "; released after \((release.monotonicNanoseconds - press.monotonicNanoseconds) / 1_000_000) ms"
        }
        return text
    }

    /// Waits on the button's descriptor (no busy loop) for the first edge of `direction`.
    private func waitForEdge(_ direction: ButtonEdge.Direction, on input: ButtonInput,
                             until deadline: Int64) -> (ButtonEdge, Int64)? {
        while true {
            let remaining = deadline - HardwareClock.monotonicNanoseconds()
            if remaining <= 0 { return nil }
            var entry = pollfd(fd: input.pollDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, Int32(min(remaining / 1_000_000 + 1, 1000)))
            guard let edges = try? input.readEdges() else { return nil }
            let readAt = HardwareClock.monotonicNanoseconds()
            if let edge = edges.first(where: { $0.direction == direction }) { return (edge, readAt) }
        }
    }

    // MARK: - LED

    private func checkLED(_ led: GpioOutputLine, report: inout BringUpReport) {
        do {
            let output = try GpiodMotor(line: led, role: "led")
            defer { output.close() }
            try output.set(on: true)
            HardwareClock.sleep(untilMonotonicNanoseconds: HardwareClock.monotonicNanoseconds() + 500_000_000)
            try output.set(on: false)
            report.pass("led: \(output.resolved), lit for 0.5 s")
        } catch let error as GpioError {
            report.fail("led: \(error.detail)", fix: error.fix)
        } catch {
            report.fail("led: \(error)", fix: "check `dmesg`")
        }
    }

    // MARK: - Sound

    private func checkSound(_ sound: SoundConfiguration, report: inout BringUpReport) {
        guard sound.driver == .alsa else {
            report.info("sound: \(BoardSetupText.noSound)")
            return
        }
        let output = AlsaSound(configuration: sound)
        defer { output.close() }
        switch output.checkAudibility() {
        case .inaudible(let reason):
            report.warn("sound: \(reason)", fix: BoardSetupText.soundDisabled)
            return
        case .audible(let description):
            report.pass("sound: \(description)")
        }
        do {
            try output.prepare()
            if let timing = output.timing { report.pass("sound: prepared, \(timing)") }
        } catch {
            report.warn("sound: \(error)", fix: BoardSetupText.soundDisabled)
            return
        }
        guard options.playSound else { return }
        say("       Warning: the aversive sound (0.6 s of harsh bursts, at \(Int(sound.loudness * 100))% of full scale) "
            + "plays in \(Int(soundWarning)) s. It is meant to be unpleasant. (--no-sound skips it.)")
        HardwareClock.sleep(untilMonotonicNanoseconds: HardwareClock.monotonicNanoseconds() + Int64(soundWarning * 1e9))
        let started = HardwareClock.monotonicNanoseconds()
        do {
            try output.playAversiveSound()
            report.pass("sound: played the aversive sound (\((HardwareClock.monotonicNanoseconds() - started) / 1_000_000) ms until drained)")
        } catch {
            report.warn("sound: \(error)", fix: BoardSetupText.soundDisabled)
        }
    }
}

/// Counts the check's lines and says each as it comes.
public struct BringUpReport {
    public private(set) var passed = 0
    public private(set) var failed = 0
    public private(set) var warnings = 0
    private let say: (String) -> Void

    init(say: @escaping (String) -> Void) { self.say = say }

    mutating func pass(_ text: String) {
        passed += 1
        say("[ok]   \(text)")
    }

    mutating func fail(_ text: String, fix: String) {
        failed += 1
        say("[FAIL] \(text)\n       Fix: \(fix)")
    }

    mutating func warn(_ text: String, fix: String) {
        warnings += 1
        say("[warn] \(text)\n       \(fix)")
    }

    func info(_ text: String) {
        say("[--]   \(text)")
    }
}
