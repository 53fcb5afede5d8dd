import CEvdev
import Foundation

/// One input device seen while looking for the button, for messages and `board check`.
public struct EvdevDeviceSummary: Sendable, Equatable {
    /// `/dev/input/eventN`.
    public var path: String
    /// The stable `/dev/input/by-id/…` links that point at it (USB devices have them).
    public var byIdPaths: [String]
    public var name: String
    /// Has every key from Esc to D, as udev's keyboard test asks.
    public var isKeyboard: Bool
    /// Reports the key being looked for.
    public var hasKey: Bool

    /// `"Logitech USB Keyboard" (keyboard) /dev/input/by-id/usb-Logitech…-event-kbd`.
    public var listing: String {
        "\"\(name)\"\(isKeyboard ? " (keyboard)" : "") \(byIdPaths.first ?? path)"
    }
}

/// Finds input devices under /dev/input and resolves a board file's device reference to a path.
/// Devices that cannot be opened are skipped; when every one is unreadable, that is the error.
public struct EvdevDeviceFinder: Sendable {
    /// `/dev/input` (a test may point it elsewhere).
    public var inputFolder: String

    public init(inputFolder: String = "/dev/input") {
        self.inputFolder = inputFolder
    }

    /// What a look over the input devices found.
    public struct Scan: Sendable, Equatable {
        /// The devices that could be opened, by event number.
        public var devices: [EvdevDeviceSummary]
        /// Event nodes this user may not open.
        public var unreadable: [String]
        /// Whether the input folder exists at all (a server, a container or a VM may have none).
        public var folderExists = true
        /// How many `eventN` nodes the folder has (opened or not).
        public var eventNodes = 0

        /// Why no input device at all could be looked at, when that is so: said instead of "found no
        /// keyboard", whose fix (a board file's keys) would not help. Nil when some device was read, or
        /// when every one was refused (that is permission denied, with its own fix).
        public func noInput(folder: String) -> EvdevError.NoInput? {
            if !folderExists { return .noFolder(folder) }
            if eventNodes == 0 { return .noEventDevices(folder) }
            if devices.isEmpty && unreadable.isEmpty { return .noneOpened(folder, count: eventNodes) }
            return nil
        }
    }

    /// Opens every /dev/input/event* briefly and reads its name and keys.
    public func scan(keyCode: UInt16) -> Scan {
        var isDirectory: ObjCBool = false
        let folderExists = FileManager.default.fileExists(atPath: inputFolder, isDirectory: &isDirectory) && isDirectory.boolValue
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: inputFolder)) ?? []
        let events = entries.filter { $0.hasPrefix("event") && Int($0.dropFirst(5)) != nil }
            .sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }
        let links = byIdLinks()
        var scan = Scan(devices: [], unreadable: [], folderExists: folderExists, eventNodes: events.count)
        for entry in events {
            let path = "\(inputFolder)/\(entry)"
            var error = chrono_evdev_error()
            guard let device = chrono_evdev_open(path, false, &error) else {
                if error.status == CHRONO_EVDEV_PERMISSION_DENIED { scan.unreadable.append(path) }
                continue
            }
            scan.devices.append(EvdevDeviceSummary(
                path: path, byIdPaths: links[path] ?? [], name: String(cString: chrono_evdev_name(device)),
                isKeyboard: chrono_evdev_is_keyboard(device), hasKey: chrono_evdev_has_key(device, UInt32(keyCode))))
            chrono_evdev_close(device)
        }
        return scan
    }

    /// The path to open for `reference`. Throws `EvdevError` (no such device, with the devices that do
    /// have the key; or permission denied when nothing could be read).
    public func resolve(_ reference: EvdevDeviceReference, keyCode: UInt16, role: String = "button") throws(EvdevError) -> String {
        if case .path(let path) = reference {
            if FileManager.default.fileExists(atPath: path) { return path }
            throw notFound(reference, keyCode: keyCode, role: role, detail: "no input device at \(path)")
        }
        let scan = scan(keyCode: keyCode)
        let match: EvdevDeviceSummary?
        switch reference {
        case .name(let text):
            let named = scan.devices.filter { $0.name.localizedCaseInsensitiveContains(text) }
            match = named.first(where: \.hasKey) ?? named.first
        case .firstKeyboard:
            match = scan.devices.first { $0.isKeyboard && $0.hasKey }
        case .path:
            match = nil
        }
        if let match { return match.byIdPaths.first ?? match.path }
        if scan.devices.isEmpty, let first = scan.unreadable.first {
            let count = scan.unreadable.count
            throw EvdevError(kind: .permissionDenied, role: role, device: first,
                             detail: "cannot look for \(reference): this user may read none of the \(count) input device\(count == 1 ? "" : "s") "
                                + "(permission denied on \(scan.unreadable.joined(separator: ", ")))")
        }
        let detail = switch reference {
        case .name(let text): "no input device's name contains \"\(text)\""
        default: "found no keyboard with \(EvdevKeyName.name(of: keyCode))"
        }
        throw notFound(reference, keyCode: keyCode, role: role, scan: scan, detail: detail)
    }

    /// "no such device", listing the devices that have the key.
    func notFound(_ reference: EvdevDeviceReference, keyCode: UInt16, role: String, scan: Scan? = nil,
                  detail: String) -> EvdevError {
        let scan = scan ?? self.scan(keyCode: keyCode)
        var detail = detail
        let noInput = scan.noInput(folder: inputFolder)
        if let noInput { detail += ": \(noInput)" }
        if !scan.unreadable.isEmpty {
            detail += " (\(scan.unreadable.count) input device\(scan.unreadable.count == 1 ? "" : "s") could not be read: permission denied)"
        }
        return EvdevError(kind: scan.devices.isEmpty && !scan.unreadable.isEmpty ? .permissionDenied : .noSuchDevice,
                          role: role, device: "\(reference)", detail: detail, found: scan.devices.filter(\.hasKey),
                          noInput: noInput, unreadable: scan.unreadable.count)
    }

    /// Why `waitForNewDevices` returned.
    public enum WaitEnd: Sendable {
        /// Something appeared under the input folder: try to resolve again.
        case changed
        case timedOut
        /// `wakeDescriptor` became readable (or a signal interrupted the wait).
        case woken
    }

    /// Blocks until a device node or by-id link appears under the input folder, `wakeDescriptor`
    /// (e.g. a signal pipe) becomes readable, or `timeoutMilliseconds` pass (inotify: no polling loop).
    @discardableResult
    public func waitForNewDevices(timeoutMilliseconds: Int32, wakeDescriptor: Int32 = -1) -> WaitEnd {
        switch chrono_evdev_wait_for_new_devices(inputFolder, timeoutMilliseconds, wakeDescriptor) {
        case 1: return .changed
        case 2: return .woken
        case 0: return .timedOut
        default:
            // Cannot watch (no /dev/input yet): wait out the timeout instead of spinning.
            HardwareClock.sleep(untilMonotonicNanoseconds: HardwareClock.monotonicNanoseconds() + Int64(timeoutMilliseconds) * 1_000_000)
            return .timedOut
        }
    }

    /// event path → the by-id links that point at it.
    private func byIdLinks() -> [String: [String]] {
        let folder = "\(inputFolder)/by-id"
        var links: [String: [String]] = [:]
        for entry in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() {
            let link = "\(folder)/\(entry)"
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link) else { continue }
            let resolved = target.hasPrefix("/") ? target : ((folder as NSString).appendingPathComponent(target) as NSString).standardizingPath
            links[resolved, default: []].append(link)
        }
        return links
    }
}
