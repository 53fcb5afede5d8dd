import CEvdev
import Synchronization

/// A key on any input device (a keyboard's space bar, a USB foot switch, a presenter's clicker, a
/// lab response box) as the button, read through libevdev.
///
/// The device's clock is switched to CLOCK_MONOTONIC (EVIOCSCLOCKID), so each edge carries the
/// kernel's stamp of the key event on the loop's clock, as the GPIO button's do; the loop waits on
/// the device's descriptor. Auto-repeat is ignored and SYN_DROPPED is recovered from
/// (`EvdevKeyDecoder`). With `grab` the device is taken exclusively (EVIOCGRAB), so its keys do not
/// also type into other programs. An unplug makes `readEdges()` throw `EvdevError` `.deviceGone`
/// and the descriptor report POLLHUP, which ends the session as interrupted.
///
/// Thread-safe: calls are serialised, so another thread may `close()` it while the loop reads.
public final class EvdevButton: ButtonInput, Sendable {
    /// The path opened (a by-id link when the device has one).
    public let path: String
    /// The kernel's name for the device.
    public let name: String
    /// USB vendor and product ids (0 for devices without).
    public let vendor: UInt16
    public let product: UInt16
    public let keyCode: UInt16
    public let grabbed: Bool
    private let role: String
    private let state: Mutex<OpenDevice?>
    private let descriptor: Int32

    /// Finds the board's device and opens it. Throws an `EvdevError` that says what is wrong and how to fix it.
    public convenience init(input: EvdevInput, role: String = "button",
                            finder: EvdevDeviceFinder = EvdevDeviceFinder()) throws(EvdevError) {
        let path = try finder.resolve(input.device, keyCode: input.keyCode, role: role)
        do {
            try self.init(path: path, keyCode: input.keyCode, grab: input.grab, role: role)
        } catch where error.kind == .keyMissing || error.kind == .notAnInputDevice || error.kind == .noSuchDevice {
            throw finder.notFound(input.device, keyCode: input.keyCode, role: role, detail: error.detail)
        }
    }

    /// Opens the event device at `path` for `keyCode`.
    public init(path: String, keyCode: UInt16, grab: Bool, role: String = "button") throws(EvdevError) {
        var error = chrono_evdev_error()
        guard let device = chrono_evdev_open(path, grab, &error) else { throw EvdevError(error, role: role, device: path) }
        let name = String(cString: chrono_evdev_name(device))
        guard chrono_evdev_has_key(device, UInt32(keyCode)) else {
            chrono_evdev_close(device)
            throw EvdevError(kind: .keyMissing, role: role, device: path,
                             detail: "\"\(name)\" (\(path)) has no \(EvdevKeyName.name(of: keyCode))")
        }
        self.path = path
        self.name = name
        vendor = chrono_evdev_vendor(device)
        product = chrono_evdev_product(device)
        self.keyCode = keyCode
        grabbed = grab
        self.role = role
        descriptor = chrono_evdev_fd(device)
        let decoder = EvdevKeyDecoder(keyCode: keyCode, initiallyPressed: chrono_evdev_key_value(device, UInt32(keyCode)) == 1)
        state = Mutex(OpenDevice(handle: ShimHandle(pointer: device), decoder: decoder))
    }

    deinit { close() }

    /// The device's descriptor: readable while events are queued. -1 after `close()`.
    public var pollDescriptor: Int32 { state.withLock { $0 == nil ? -1 : descriptor } }

    public func readEdges() throws -> [ButtonEdge] {
        try state.withLock { open throws(EvdevError) -> [ButtonEdge] in
            guard open != nil else { return [] }
            return try open!.drain(role: role, path: path)
        }
    }

    /// Whether the key is held right now (as far as the events read so far say).
    public var isPressed: Bool { state.withLock { $0?.decoder.isPressed ?? false } }

    /// How many times the kernel reported lost events (SYN_DROPPED) since the device was opened.
    public var droppedCount: Int { state.withLock { $0?.decoder.droppedCount ?? 0 } }

    /// The last other key pressed on the device, so `board check` can say which key it really sends.
    public var lastOtherKeyPressed: UInt16? { state.withLock { $0?.decoder.lastOtherKeyPressed } }

    /// Whether the device has been unplugged: a read says ENODEV. Events still queued are dropped, so
    /// ask only once the loop has ended.
    public func isUnplugged() -> Bool {
        do {
            _ = try readEdges()
            return false
        } catch {
            return (error as? EvdevError)?.kind == .deviceGone
        }
    }

    public func close() {
        state.withLock { open in
            if let device = open { chrono_evdev_close(device.handle.pointer) }
            open = nil
        }
    }

    /// The libevdev handle and the key's decoder, kept together under one lock.
    private struct OpenDevice {
        let handle: ShimHandle
        var decoder: EvdevKeyDecoder

        mutating func drain(role: String, path: String) throws(EvdevError) -> [ButtonEdge] {
            var edges: [ButtonEdge] = []
            var buffer = [chrono_evdev_event](repeating: chrono_evdev_event(), count: 64)
            while true {
                var error = chrono_evdev_error()
                let count = chrono_evdev_read(handle.pointer, &buffer, Int32(buffer.count), &error)
                if count < 0 { throw EvdevError(error, role: role, device: path) }
                edges += decoder.decode(buffer.prefix(Int(count)).compactMap(EvdevEvent.init))
                if count < buffer.count { return edges }
            }
        }
    }
}
