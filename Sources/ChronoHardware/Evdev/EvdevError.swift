import CEvdev

/// Why an input device could not be used as the button, with what to do about it.
public struct EvdevError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The class of failure, in the user's terms.
    public enum Kind: Equatable, Sendable {
        /// The path does not exist, or no device matches the name / no keyboard was found.
        case noSuchDevice
        /// /dev/input/event* is not readable by this user.
        case permissionDenied
        /// The path is not an evdev node (/dev/input/eventN or a by-id `…-event-…` link).
        case notAnInputDevice
        /// The device does not report the board's key.
        case keyMissing
        /// `grab: true` but another program already grabbed the device.
        case grabbedElsewhere
        /// The device went away (unplugged) while in use.
        case deviceGone
        case system(errno: Int32)
    }

    public var kind: Kind
    /// "button" or "second_button": the board-file section.
    public var role: String
    /// The device as resolved (path), or as the board file named it.
    public var device: String
    /// The failing call or search, in words.
    public var detail: String
    /// The input devices that do have the key (keyboards marked), for "no such device" and "key missing".
    public var found: [EvdevDeviceSummary]
    /// Set when no input device at all could be looked at: the fix is then to give the machine one,
    /// not to edit the board file.
    public var noInput: NoInput?
    /// How many input devices this user may not read (permission denied), beside those it could.
    public var unreadable: Int

    /// Why there was no input device to look at.
    public enum NoInput: Equatable, Sendable, CustomStringConvertible {
        /// No input folder (`/dev/input`) at all.
        case noFolder(String)
        /// The folder has no `eventN` device.
        case noEventDevices(String)
        /// It has some, but none opened as an input device.
        case noneOpened(String, count: Int)

        public var description: String {
            switch self {
            case .noFolder(let folder): "there is no \(folder) on this machine, so no input device at all"
            case .noEventDevices(let folder): "\(folder) has no event devices (\(folder)/event*), so no keyboard or other input device"
            case .noneOpened(let folder, let count):
                "none of the \(count) event device\(count == 1 ? "" : "s") in \(folder) opened as an input device"
            }
        }
    }

    public init(kind: Kind, role: String, device: String, detail: String, found: [EvdevDeviceSummary] = [],
                noInput: NoInput? = nil, unreadable: Int = 0) {
        self.kind = kind
        self.role = role
        self.device = device
        self.detail = detail
        self.found = found
        self.noInput = noInput
        self.unreadable = unreadable
    }

    /// Joining the `input` group: read access to every input device, from the next login.
    static let inputGroupFix = "join the `input` group (`sudo usermod -aG input $USER`), then log in again"

    /// What to do about it.
    public var fix: String {
        switch kind {
        case .noSuchDevice where noInput != nil:
            return "plug in a keyboard (or the input device the board names); in a container or a virtual machine, "
                + "pass the host's input devices through; and so that this user may read them, \(Self.inputGroupFix) (docs/HARDWARE.md)"
        case .noSuchDevice, .notAnInputDevice, .keyMissing:
            let unreadableFix = unreadable == 0 ? ""
                : " If the device is one of those this user may not read, \(Self.inputGroupFix)."
            let listing = found.isEmpty
                ? "No readable input device here has that key (plug the device in; `ls -l /dev/input/by-id` lists devices)."
                : "Devices found with that key: " + found.map(\.listing).joined(separator: "; ")
            return "set `\(role).device` to one of the devices found (a /dev/input/by-id path is stable across reboots), "
                + "`\(role).device_name` to part of its name, or `\(role).device: first-keyboard`, and `\(role).key` "
                + "to a key it has. \(listing)\(unreadableFix)"
        case .permissionDenied:
            return "this user may not read /dev/input/event*: \(Self.inputGroupFix); or, to give read access to devices with keys only, "
                + "install the udev rule and join its group "
                + "(`sudo cp udev/61-chronoception-input.rules /etc/udev/rules.d/ && sudo udevadm control --reload && "
                + "sudo udevadm trigger --subsystem-match=input`, then `sudo usermod -aG chronoception $USER`) "
                + "and log in again (docs/HARDWARE.md)"
        case .grabbedElsewhere:
            return "another program has grabbed \(device) for itself: close it, or set `\(role).grab: false`"
        case .deviceGone:
            return "plug the device back in; `chronoception run` waits for it, other commands can be run again"
        case .system:
            return "check `dmesg` for input errors; if `evtest \(device)` reads the device, report this as a bug"
        }
    }

    public var description: String { "\(role): \(detail). Fix: \(fix)" }

    /// Builds the error from the shim's report.
    init(_ error: chrono_evdev_error, role: String, device: String) {
        var error = error
        let detail = withUnsafeBytes(of: &error.detail) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let kind: Kind
        switch error.status {
        case CHRONO_EVDEV_NO_SUCH_DEVICE: kind = .noSuchDevice
        case CHRONO_EVDEV_PERMISSION_DENIED: kind = .permissionDenied
        case CHRONO_EVDEV_NOT_AN_INPUT_DEVICE: kind = .notAnInputDevice
        case CHRONO_EVDEV_GRABBED_ELSEWHERE: kind = .grabbedElsewhere
        case CHRONO_EVDEV_DEVICE_GONE: kind = .deviceGone
        default: kind = .system(errno: error.error_number)
        }
        self.init(kind: kind, role: role, device: device, detail: detail)
    }
}
