/// One wiring of the device, as described by a board file in `boards/` (see docs/HARDWARE.md):
/// which lines the button, motor and optional LED and second button are on, how they are wired,
/// the motor's safety limits and the sound device. Built only by `BoardFileParser`, so every value
/// here has been validated.
public struct BoardConfiguration: Sendable, Equatable {
    /// The board's name: the file name without `.yaml` (for example `raspberry-pi-4b`).
    public var name: String
    /// One line for people: which hardware this is.
    public var description: String
    /// The file this configuration came from.
    public var sourcePath: String
    public var button: ButtonConfiguration
    /// An optional second button (for example to cycle presets).
    public var secondButton: ButtonConfiguration?
    public var motor: MotorConfiguration
    /// An optional status LED.
    public var led: GpioOutputLine?
    public var sound: SoundConfiguration
    /// How long a press must last to count as a long press (the product default is 1500 ms).
    public var longPressMilliseconds: Int
    /// Where the battery is read; nil: the board has no battery (nothing is read, nothing changes).
    public var battery: BatteryConfiguration? = nil
    /// A spare input line for `board check --loopback`, jumpered to the motor's output; nil: none named.
    /// Nothing but the self-test opens it.
    public var loopback: GpioInputLine? = nil
}

/// A GPIO line on a chip, as a board file names it.
public enum GpioLineReference: Sendable, Equatable, CustomStringConvertible {
    /// The line's offset on its chip (the BCM GPIO number on a Raspberry Pi's main chip).
    case offset(UInt32)
    /// The line's name from the device tree (`gpioinfo` lists them), e.g. `GPIO17`.
    case name(String)

    public var description: String {
        switch self {
        case .offset(let offset): return "line \(offset)"
        case .name(let name): return "line \"\(name)\""
        }
    }
}

/// The internal pull resistor an input line asks for.
public enum GpioBias: String, Sendable, Equatable, CaseIterable {
    case asIs = "as-is"
    case disabled
    case pullUp = "pull-up"
    case pullDown = "pull-down"
}

/// An input line: chip, line, polarity and bias.
public struct GpioInputLine: Sendable, Equatable {
    /// `gpiochip0`, `/dev/gpiochip0`, `0`, or a chip label such as `pinctrl-rp1`.
    public var chip: String
    public var line: GpioLineReference
    /// True when the line reads low while the button is pressed (button to ground with a pull-up).
    public var activeLow: Bool
    public var bias: GpioBias

    public init(chip: String, line: GpioLineReference, activeLow: Bool, bias: GpioBias) {
        self.chip = chip
        self.line = line
        self.activeLow = activeLow
        self.bias = bias
    }
}

/// An output line: chip, line and polarity.
public struct GpioOutputLine: Sendable, Equatable {
    /// `gpiochip0`, `/dev/gpiochip0`, `0`, or a chip label such as `pinctrl-rp1`.
    public var chip: String
    public var line: GpioLineReference
    /// True when driving the line low switches the load on.
    public var activeLow: Bool

    public init(chip: String, line: GpioLineReference, activeLow: Bool) {
        self.chip = chip
        self.line = line
        self.activeLow = activeLow
    }
}

/// The tap button.
public struct ButtonConfiguration: Sendable, Equatable {
    /// What provides the button's edges.
    public enum Driver: Sendable, Equatable {
        /// A GPIO line read through libgpiod.
        case gpiod(GpioInputLine)
        /// The terminal keyboard (desktop board); implemented by the runtime.
        case terminal
        /// A key of an input device (keyboard, USB foot switch, clicker) read through libevdev.
        case evdev(EvdevInput)
    }

    public var driver: Driver
    /// Edges closer together than this after a change are contact bounce. Applied by the kernel where
    /// libgpiod API v2 allows it, and always by the session core.
    public var debounceMilliseconds: Int
}

/// The vibration motor.
public struct MotorConfiguration: Sendable, Equatable {
    /// What the motor commands drive.
    public enum Driver: Sendable, Equatable {
        /// A GPIO line (through a transistor or MOSFET) driven through libgpiod.
        case gpiod(GpioOutputLine)
        /// The terminal (desktop board); implemented by the runtime.
        case terminal
    }

    public var driver: Driver
    /// The longest the motor may stay on in one go; the runtime switches it off at this limit.
    public var safeMaxOnMilliseconds: Int
    /// How long the motor takes to spin up to a felt vibration; the runtime may start pulses this
    /// much early so that the felt boundary is on time.
    public var onsetLatencyMilliseconds: Int
}

/// The speaker for Fear Mode's aversive sound.
public struct SoundConfiguration: Sendable, Equatable {
    /// What plays the sound.
    public enum Driver: String, Sendable, Equatable {
        /// alsa-lib.
        case alsa
        /// No sound: Fear Mode behaves like Challenge Mode.
        case none
    }

    public var driver: Driver
    /// The ALSA PCM to play on, e.g. `plughw:CARD=Headphones,DEV=0` or `default`.
    public var device: String
    /// The ALSA control device whose mixer is checked, e.g. `hw:CARD=Headphones`.
    public var mixerDevice: String
    /// The simple mixer control checked for mute and zero volume (`PCM` on a Pi's analog output);
    /// nil when the device has no volume control (then only "it opens" can be checked).
    public var mixerControl: String?
    /// ALSA period size in frames; small keeps the output latency low (256 at 48 kHz is 5.3 ms).
    public var periodFrames: Int
    public var sampleRate: Int
    /// Peak level of the aversive sound, as a fraction of full scale (0 < loudness ≤ 1).
    public var loudness: Double

    public init(driver: Driver, device: String, mixerDevice: String, mixerControl: String?,
                periodFrames: Int, sampleRate: Int, loudness: Double) {
        self.driver = driver
        self.device = device
        self.mixerDevice = mixerDevice
        self.mixerControl = mixerControl
        self.periodFrames = periodFrames
        self.sampleRate = sampleRate
        self.loudness = loudness
    }

    /// The mixer device that belongs to a PCM name: the card part of `hw:`/`plughw:` names
    /// (`plughw:CARD=Headphones,DEV=0` → `hw:CARD=Headphones`), `default` otherwise.
    public static func mixerDevice(forPCM device: String) -> String {
        for prefix in ["plughw:", "hw:"] where device.hasPrefix(prefix) {
            let card = device.dropFirst(prefix.count).split(separator: ",").first.map(String.init) ?? "0"
            return "hw:\(card)"
        }
        return "default"
    }
}
