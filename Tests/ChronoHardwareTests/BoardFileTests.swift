import ChronoTesting
import Foundation
import Testing
@testable import ChronoHardware

@Suite("Board files")
struct BoardFileTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static let boardsFolder = repository + "/boards"

    static let minimal = """
        name: test
        button:
          chip: gpiochip0
          line: 17
          active_low: true
        motor:
          chip: gpiochip0
          line: GPIO27
          safe_max_on_ms: 800
        """

    @Test(arguments: ["raspberry-pi-3b", "raspberry-pi-4b", "raspberry-pi-5", "raspberry-pi-zero-2w", "desktop", "keyboard", "usb-foot-switch"])
    func shippedBoardsAreValid(name: String) throws {
        let board = try BoardCatalog(searchPath: [Self.boardsFolder]).load(name)
        #expect(board.name == name)
        #expect(!board.description.isEmpty)
        #expect(board.longPressMilliseconds == 1500)
        #expect(board.sound.periodFrames <= 256)
    }

    @Test func raspberryPi3UsesTheBcm2835PinControllerAndThePi4sPins() throws {
        let board = try BoardCatalog(searchPath: [Self.boardsFolder]).load("raspberry-pi-3b")
        #expect(board.button.driver == .gpiod(GpioInputLine(chip: "pinctrl-bcm2835", line: .name("GPIO17"),
                                                            activeLow: true, bias: .pullUp)))
        #expect(board.motor.driver == .gpiod(GpioOutputLine(chip: "pinctrl-bcm2835", line: .name("GPIO27"), activeLow: false)))
        #expect(board.motor.safeMaxOnMilliseconds == 1000 && board.motor.onsetLatencyMilliseconds == 25)
    }

    @Test func raspberryPi4UsesThePinctrlLabelLineNamesAndThePCMControl() throws {
        let board = try BoardCatalog(searchPath: [Self.boardsFolder]).load("raspberry-pi-4b")
        #expect(board.button.driver == .gpiod(GpioInputLine(chip: "pinctrl-bcm2711", line: .name("GPIO17"),
                                                            activeLow: true, bias: .pullUp)))
        #expect(board.motor.driver == .gpiod(GpioOutputLine(chip: "pinctrl-bcm2711", line: .name("GPIO27"), activeLow: false)))
        #expect(board.motor.safeMaxOnMilliseconds == 1000 && board.motor.onsetLatencyMilliseconds == 25)
        #expect(board.sound.mixerControl == "PCM" && board.sound.mixerDevice == "hw:CARD=Headphones")
    }

    @Test func raspberryPi5NamesTheRP1ChipByLabel() throws {
        let board = try BoardCatalog(searchPath: [Self.boardsFolder]).load("raspberry-pi-5")
        guard case .gpiod(let line) = board.button.driver else { Issue.record("not gpiod"); return }
        #expect(line.chip == "pinctrl-rp1")
    }

    @Test func desktopUsesTheTerminal() throws {
        let board = try BoardCatalog(searchPath: [Self.boardsFolder]).load("desktop")
        #expect(board.button.driver == .terminal)
        #expect(board.motor.driver == .terminal)
        #expect(board.sound.driver == .alsa && board.sound.device == "default")
    }

    @Test func defaultsApply() throws {
        let board = try BoardFileParser.parse(Self.minimal, file: "boards/test.yaml")
        #expect(board.button.debounceMilliseconds == 10)
        #expect(board.button.driver == .gpiod(GpioInputLine(chip: "gpiochip0", line: .offset(17), activeLow: true, bias: .pullUp)))
        #expect(board.motor.onsetLatencyMilliseconds == 0)
        #expect(board.sound.driver == .none)
        #expect(board.secondButton == nil && board.led == nil)
    }

    @Test func mixerDeviceIsDerivedFromThePCM() {
        #expect(SoundConfiguration.mixerDevice(forPCM: "plughw:CARD=Headphones,DEV=0") == "hw:CARD=Headphones")
        #expect(SoundConfiguration.mixerDevice(forPCM: "hw:1,0") == "hw:1")
        #expect(SoundConfiguration.mixerDevice(forPCM: "default") == "default")
    }

    // MARK: - Errors name the file, the key and the fix

    static func error(_ yaml: String, file: String = "boards/test.yaml") -> String {
        do {
            _ = try BoardFileParser.parse(yaml, file: file)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func missingSafeMaximum() {
        let yaml = Self.minimal.replacingOccurrences(of: "  safe_max_on_ms: 800\n", with: "").replacingOccurrences(of: "  safe_max_on_ms: 800", with: "")
        #expect(Self.error(yaml) == "boards/test.yaml:6: motor.safe_max_on_ms: is missing. Fix: set the longest the motor may run in one go, e.g. `safe_max_on_ms: 1000`")
    }

    @Test func outOfRangeValue() {
        let yaml = Self.minimal.replacingOccurrences(of: "safe_max_on_ms: 800", with: "safe_max_on_ms: 0")
        #expect(Self.error(yaml) == "boards/test.yaml:9: motor.safe_max_on_ms: must be between 10 and 10000 ms, got 0. Fix: set the longest the motor may run in one go, e.g. `safe_max_on_ms: 1000`")
    }

    @Test func wrongType() {
        let yaml = Self.minimal.replacingOccurrences(of: "active_low: true", with: "active_low: maybe")
        #expect(Self.error(yaml) == "boards/test.yaml:5: button.active_low: expected true or false, got \"maybe\". Fix: write `active_low: true` when the line reads low while active, else false")
    }

    @Test func unknownKeySuggestsTheRightOne() {
        let yaml = Self.minimal + "\n  onset_latency: 20"
        #expect(Self.error(yaml) == "boards/test.yaml:10: motor.onset_latency: unknown key. Fix: did you mean `onset_latency_ms`? Known keys here: active_low, chip, driver, line, onset_latency_ms, safe_max_on_ms")
    }

    @Test func unknownBias() {
        let yaml = Self.minimal + "\nsecond_button:\n  chip: gpiochip0\n  line: 23\n  bias: up"
        #expect(Self.error(yaml) == "boards/test.yaml:13: second_button.bias: unknown value \"up\". Fix: use one of: as-is, disabled, pull-up, pull-down")
    }

    @Test func nameMustMatchTheFile() {
        #expect(Self.error(Self.minimal, file: "/etc/chronoception/boards/pi.yaml") == "/etc/chronoception/boards/pi.yaml:1: name: is \"test\" but the file is pi.yaml. Fix: set `name: pi` or rename the file to test.yaml")
    }

    @Test func sameLineTwice() {
        let yaml = Self.minimal.replacingOccurrences(of: "line: GPIO27", with: "line: 17")
        #expect(Self.error(yaml) == "boards/test.yaml: motor.line: uses line 17 of gpiochip0, which button already uses. Fix: wire motor to a free line and change `line:` to match")
    }

    @Test func missingSection() {
        #expect(Self.error("name: test\nbutton:\n  driver: terminal\n") == "boards/test.yaml:1: motor: is missing. Fix: add a `motor:` section (see boards/raspberry-pi-4b.yaml)")
    }

    @Test func badYAML() {
        #expect(Self.error("name: test\nbutton: [unclosed\n").hasPrefix("boards/test.yaml:3: is not valid YAML at column 1: "))
    }

    @Test func soundValues() {
        let yaml = Self.minimal + "\nsound:\n  device: default\n  period_frames: 4\n"
        #expect(Self.error(yaml) == "boards/test.yaml:12: sound.period_frames: must be between 16 and 8192 frames, got 4. Fix: use a small power of two, e.g. `period_frames: 256` (5.3 ms at 48 kHz)")
    }

    // MARK: - Lookup

    @Test func lookupByNameAndPath() throws {
        let folder = try TemporaryFolder()
        try Self.minimal.write(toFile: folder.path + "/test.yaml", atomically: true, encoding: .utf8)
        let catalog = BoardCatalog(searchPath: [folder.path + "/missing", folder.path, Self.boardsFolder])
        #expect(try catalog.locate("test") == folder.path + "/test.yaml")
        #expect(try catalog.locate(folder.path + "/test.yaml") == folder.path + "/test.yaml")
        #expect(catalog.list().map(\.name) == ["desktop", "keyboard", "raspberry-pi-3b", "raspberry-pi-4b", "raspberry-pi-5", "raspberry-pi-zero-2w", "test", "usb-foot-switch"])
        #expect(throws: BoardNotFoundError.self) { try catalog.locate("pi9") }
    }

    @Test func standardSearchPathStartsWithTheEnvironment() {
        let catalog = BoardCatalog.standard(environment: ["CHRONOCEPTION_BOARDS_DIR": "/opt/boards"],
                                            workingDirectory: "/home/pi",
                                            executablePath: "/work/x/.build/x86_64-unknown-linux-gnu/debug/chronoception")
        #expect(catalog.searchPath.prefix(4) == ["/opt/boards", "/home/pi/boards",
                                                 "/work/x/.build/x86_64-unknown-linux-gnu/debug/boards",
                                                 "/work/x/.build/x86_64-unknown-linux-gnu/boards"])
        #expect(catalog.searchPath.contains("/work/x/boards"))
        #expect(catalog.searchPath.suffix(2) == ["/usr/share/chronoception/boards", "/etc/chronoception/boards"])
    }
}

/// A temporary folder removed when the value goes away.
final class TemporaryFolder: Sendable {
    let path: String
    init() throws {
        var template = Array((NSTemporaryDirectory() + "/chronoception-test-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw MockDriverError("mkdtemp failed") }
        path = String(cString: made)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

@Suite("Board files: evdev buttons")
struct EvdevBoardFileTests {
    func parse(_ button: String, rest: String = "") throws -> BoardConfiguration {
        try BoardFileParser.parse("name: test\nbutton:\n" + button + rest, file: "boards/test.yaml")
    }

    func error(_ button: String) -> BoardFileError? {
        do {
            _ = try parse(button)
            return nil
        } catch let error as BoardFileError {
            return error
        } catch {
            return nil
        }
    }

    @Test func keyboardBoardIsTheFirstKeyboardsSpaceBar() throws {
        let board = try BoardCatalog(searchPath: [BoardFileTests.boardsFolder]).load("keyboard")
        #expect(board.button.driver == .evdev(EvdevInput(device: .firstKeyboard, keyCode: 57, grab: false)))
        #expect(board.button.debounceMilliseconds == 0)
        #expect(board.motor.driver == .terminal)
        #expect(board.sound.driver == .alsa && board.sound.mixerControl == "Master")
    }

    @Test func footSwitchBoardMatchesByNameAndGrabs() throws {
        let board = try BoardCatalog(searchPath: [BoardFileTests.boardsFolder]).load("usb-foot-switch")
        #expect(board.button.driver == .evdev(EvdevInput(device: .name("FootSwitch"), keyCode: 48, grab: true)))
        #expect(board.motor.driver == .terminal)
    }

    @Test func evdevDefaultsAreTheDesktops() throws {
        let board = try parse("  driver: evdev\n")
        #expect(board.button.driver == .evdev(EvdevInput(device: .firstKeyboard, keyCode: 57, grab: false)))
        #expect(board.button.debounceMilliseconds == 0)
        #expect(board.motor == MotorConfiguration(driver: .terminal, safeMaxOnMilliseconds: 1000, onsetLatencyMilliseconds: 0))
        #expect(board.sound.driver == .alsa && board.sound.device == "default")
    }

    @Test func aBoardMaySayOtherwise() throws {
        let board = try parse("  driver: evdev\n  device: /dev/input/by-id/usb-x-event-kbd\n  key: KEY_PAGEDOWN\n  grab: true\n",
                              rest: "motor:\n  chip: gpiochip0\n  line: 27\n  safe_max_on_ms: 800\nsound:\n  driver: none\n")
        #expect(board.button.driver == .evdev(EvdevInput(device: .path("/dev/input/by-id/usb-x-event-kbd"), keyCode: 109, grab: true)))
        #expect(board.motor.driver == .gpiod(GpioOutputLine(chip: "gpiochip0", line: .offset(27), activeLow: false)))
        #expect(board.sound.driver == .none)
    }

    @Test func errorsNameTheKeyAndTheFix() throws {
        let unknownKey = try #require(error("  driver: evdev\n  key: spacebar\n"))
        #expect(unknownKey.key == "button.key" && unknownKey.problem == "unknown key \"spacebar\"" && unknownKey.fix.contains("`key: space`"))
        let both = try #require(error("  driver: evdev\n  device: first-keyboard\n  device_name: Pedal\n"))
        #expect(both.key == "button.device_name" && both.problem.contains("conflicts"))
        let notPath = try #require(error("  driver: evdev\n  device: event3\n"))
        #expect(notPath.key == "button.device" && notPath.fix.contains("/dev/input/by-id"))
        let grab = try #require(error("  driver: evdev\n  grab: maybe\n"))
        #expect(grab.key == "button.grab")
        let typo = try #require(error("  driver: evdev\n  devise: first-keyboard\n"))
        #expect(typo.key == "button.devise" && typo.fix.contains("did you mean `device`"))
        #expect(both.description.hasPrefix("boards/test.yaml:"))
    }
}

@Suite("Board files: the loopback self-test's line")
struct BoardLoopbackSectionTests {
    @Test("a loopback line is an input with a pull-down unless the file says otherwise")
    func parsed() throws {
        let board = try BoardFileParser.parse(BoardFileTests.minimal + "\nloopback:\n  chip: gpiochip0\n  line: GPIO24\n", file: "boards/test.yaml")
        #expect(board.loopback == GpioInputLine(chip: "gpiochip0", line: .name("GPIO24"), activeLow: false, bias: .pullDown))
        #expect(try BoardFileParser.parse(BoardFileTests.minimal, file: "boards/test.yaml").loopback == nil)
    }

    @Test("the loopback line cannot be the motor's")
    func distinct() {
        #expect(BoardFileTests.error(BoardFileTests.minimal + "\nloopback:\n  chip: gpiochip0\n  line: GPIO27\n")
            == "boards/test.yaml: loopback.line: uses line \"GPIO27\" of gpiochip0, which motor already uses. Fix: wire loopback to a free line and change `line:` to match")
    }

    @Test("the shipped Raspberry Pi boards name GPIO24 for the jumper", arguments: ["raspberry-pi-3b", "raspberry-pi-4b", "raspberry-pi-5", "raspberry-pi-zero-2w"])
    func shipped(name: String) throws {
        let board = try BoardCatalog(searchPath: [BoardFileTests.boardsFolder]).load(name)
        #expect(board.loopback?.line == .name("GPIO24"))
    }
}
