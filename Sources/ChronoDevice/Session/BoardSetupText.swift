import ChronoHardware

/// What each part of a board is, in words: `board check` prints these lines, and the daemon reports
/// the same words for the drivers it opened (the API's `setup`, onboarding's device status), so the
/// web page and the bring-up check never describe a part differently.
enum BoardSetupText {
    static func board(_ board: BoardConfiguration) -> String {
        "\(board.name) (\(board.sourcePath))"
    }

    static let terminalMotor = "terminal driver (pulses are shown as text by the runtime); no GPIO to open"

    static func gpioMotor(_ motor: GpiodMotor, line: GpioOutputLine) -> String {
        "\(motor.resolved), \(line.activeLow ? "active-low" : "active-high")"
    }

    static let terminalButton = "terminal keyboard (the runtime reads space/enter from the terminal); no GPIO to open"

    static func gpioButton(_ input: GpiodButton, line: GpioInputLine, debounceMilliseconds: Int) -> String {
        let debounce = input.resolved.kernelDebounceMicroseconds > 0
            ? "kernel debounce \(input.resolved.kernelDebounceMicroseconds / 1000) ms"
            : "no kernel debounce (libgpiod API v\(LibgpiodAPI.version)); the session core debounces \(debounceMilliseconds) ms"
        return "\(input.resolved), \(line.activeLow ? "active-low" : "active-high"), bias \(line.bias.rawValue), \(debounce)"
    }

    static func evdevButton(_ button: EvdevButton, input: EvdevInput) -> String {
        "\(input.device) is \"\(button.name)\" at \(button.path)"
            + (button.vendor != 0 ? String(format: " (USB %04x:%04x)", button.vendor, button.product) : "")
            + ", key \(EvdevKeyName.name(of: input.keyCode)), kernel timestamps on CLOCK_MONOTONIC\(button.grabbed ? ", grabbed" : "")"
    }

    static let noSound = "none configured; Fear Mode will behave like Challenge Mode"

    /// The fix for any sound problem (SPEC §2's words).
    static let soundDisabled = "Sound is disabled. Fear Mode will behave like Challenge Mode."
}
