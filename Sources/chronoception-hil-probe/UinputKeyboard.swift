import CLibevdev
import ChronoHardware
import Glibc

/// A virtual keyboard made through the kernel's uinput (libevdev's helper): what it writes comes out
/// of a real /dev/input/eventN, through the kernel's input core and evdev, as a USB keyboard's would.
final class UinputKeyboard {
    static let space = UInt16(KEY_SPACE)
    private var device: OpaquePointer?
    /// `/dev/input/eventN`.
    let path: String

    /// Fails (nil) when /dev/uinput is missing or refuses.
    init?(name: String) {
        guard let template = libevdev_new() else { return nil }
        defer { libevdev_free(template) }
        libevdev_set_name(template, name)
        libevdev_enable_event_type(template, UInt32(EV_KEY))
        // Esc … D make it a full keyboard for the finder, as a real one is.
        for code in UInt32(KEY_ESC)...UInt32(KEY_D) { libevdev_enable_event_code(template, UInt32(EV_KEY), code, nil) }
        libevdev_enable_event_code(template, UInt32(EV_KEY), UInt32(KEY_SPACE), nil)
        libevdev_enable_event_code(template, UInt32(EV_KEY), UInt32(KEY_B), nil)
        var device: OpaquePointer?
        // -2: LIBEVDEV_UINPUT_OPEN_MANAGED (libevdev opens /dev/uinput itself).
        guard libevdev_uinput_create_from_device(template, -2, &device) == 0, let device,
              let node = libevdev_uinput_get_devnode(device) else { return nil }
        self.device = device
        path = String(cString: node)
    }

    deinit { unplug() }

    /// Writes one key event and the SYN_REPORT that delivers it.
    func write(_ code: UInt16, _ value: Int32) {
        guard let device else { return }
        libevdev_uinput_write_event(device, UInt32(EV_KEY), UInt32(code), value)
        libevdev_uinput_write_event(device, UInt32(EV_SYN), UInt32(SYN_REPORT), 0)
    }

    /// Destroys the device: to its readers, an unplug.
    func unplug() {
        if let device { libevdev_uinput_destroy(device) }
        device = nil
    }
}
