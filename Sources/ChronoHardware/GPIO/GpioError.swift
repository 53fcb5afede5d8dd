import CGPIOD

/// Why a GPIO line could not be used, with what to do about it.
public struct GpioError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The class of failure, in the user's terms.
    public enum Kind: Equatable, Sendable {
        case noSuchChip
        case noSuchLine
        /// Another consumer holds the line; its name when the kernel says.
        case lineBusy(consumer: String?)
        case permissionDenied
        /// The chip refused a setting (bias, debounce).
        case unsupported
        case system(errno: Int32)
    }

    public var kind: Kind
    /// What was being requested: "button", "motor", "led".
    public var role: String
    /// The chip as resolved (path and label) or as the board file named it.
    public var chip: String
    /// libgpiod's or the kernel's account of the failure.
    public var detail: String

    public init(kind: Kind, role: String, chip: String, detail: String) {
        self.kind = kind
        self.role = role
        self.chip = chip
        self.detail = detail
    }

    /// What to do about it.
    public var fix: String {
        switch kind {
        case .noSuchChip:
            return "run `gpiodetect` to list the chips and set `\(role).chip` in the board file to one of them "
                + "(a path such as /dev/gpiochip0, a number, or a label such as pinctrl-bcm2711)"
        case .noSuchLine:
            return "run `gpioinfo \(chipForCommand)` to list its lines and set `\(role).line` to an offset it has "
                + "or to one of the names it shows"
        case .lineBusy(let consumer?) where consumer.hasPrefix("chronoception"):
            return "another chronoception process holds the line: stop it (`systemctl stop chronoception`) and try again"
        case .lineBusy(let consumer?):
            return "\"\(consumer)\" holds the line: stop that program, or remove the device-tree overlay that claims "
                + "this pin (for example a gpio-key or w1-gpio `dtoverlay=` line in /boot/firmware/config.txt), "
                + "or wire \(role) to a free line"
        case .lineBusy(nil):
            return "another program or a kernel driver holds the line: `gpioinfo \(chipForCommand)` shows who; free it or wire \(role) to a free line"
        case .permissionDenied:
            return "install the udev rule and join its group: `sudo cp udev/60-chronoception.rules /etc/udev/rules.d/ && "
                + "sudo udevadm control --reload && sudo udevadm trigger --subsystem-match=gpio`, then "
                + "`sudo usermod -aG chronoception $USER` and log in again (docs/HARDWARE.md)"
        case .unsupported:
            return "this chip cannot do a setting the board file asks for: set `\(role).bias: as-is` "
                + "(and wire an external pull resistor), or `\(role).debounce_ms: 0`"
        case .system:
            return "check `dmesg` for GPIO errors; if the line works with `gpioget`/`gpioset`, report this as a bug"
        }
    }

    public var description: String { "\(role): \(detail). Fix: \(fix)" }

    private var chipForCommand: String {
        chip.split(separator: " ").first.map(String.init) ?? chip
    }

    /// Builds the error from the shim's report.
    init(_ error: chrono_gpiod_error, role: String, requestedChip: String) {
        var error = error
        let chip = Self.string(&error.chip)
        let consumer = Self.string(&error.consumer)
        let kind: Kind
        switch error.status {
        case CHRONO_GPIOD_NO_SUCH_CHIP: kind = .noSuchChip
        case CHRONO_GPIOD_NO_SUCH_LINE: kind = .noSuchLine
        case CHRONO_GPIOD_LINE_BUSY: kind = .lineBusy(consumer: consumer.isEmpty ? nil : consumer)
        case CHRONO_GPIOD_PERMISSION_DENIED: kind = .permissionDenied
        case CHRONO_GPIOD_UNSUPPORTED: kind = .unsupported
        default: kind = .system(errno: error.error_number)
        }
        self.init(kind: kind, role: role, chip: chip.isEmpty ? requestedChip : chip, detail: Self.string(&error.detail))
    }

    /// Reads a fixed-size C char array as a String.
    static func string<T>(_ tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
