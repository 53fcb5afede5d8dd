import ChronoHardware
import Glibc

/// Drives the real evdev button (libevdev, EVIOCSCLOCKID, EVIOCGRAB) against a uinput keyboard in
/// the VM: edges and their kernel stamps, auto-repeat, a long press, an overflow (SYN_DROPPED),
/// the grab, the errors, the unplug, and the press → user-space latency.
struct EvdevChecks {
    let report: CheckReport
    static let name = "chrono-uinput-keyboard"
    static let presses = 40

    func run() {
        guard let keyboard = UinputKeyboard(name: Self.name) else {
            report.check("uinput keyboard created", false, "libevdev_uinput_create_from_device failed: is uinput loaded?")
            return
        }
        report.check("uinput keyboard created", true, keyboard.path)
        finder(keyboard)
        edgesAndOrder(keyboard)
        latency(keyboard)
        longPress(keyboard)
        overflow(keyboard)
        grabAndErrors(keyboard)
        unplug(keyboard)
    }

    private func now() -> Int64 { HardwareClock.monotonicNanoseconds() }

    /// Waits on the button's descriptor (as the loop does) and reads what is there.
    private func waitForEdges(_ button: EvdevButton, timeoutMilliseconds: Int32 = 2000) throws -> [ButtonEdge] {
        var entry = pollfd(fd: button.pollDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, timeoutMilliseconds)
        return try button.readEdges()
    }

    private func finder(_ keyboard: UinputKeyboard) {
        report.check("the finder resolves the device by name and lists it as a keyboard with space") {
            let finder = EvdevDeviceFinder()
            let path = try finder.resolve(.name("uinput-KEYBOARD"), keyCode: UinputKeyboard.space)
            let listed = finder.scan(keyCode: UinputKeyboard.space).devices.first { $0.path == keyboard.path }
            let first = try finder.resolve(.firstKeyboard, keyCode: UinputKeyboard.space)
            return (path == keyboard.path && listed?.isKeyboard == true && listed?.hasKey == true,
                    "by name: \(path); first keyboard: \(first); listed as \(listed?.listing ?? "nothing")")
        }
    }

    private func edgesAndOrder(_ keyboard: UinputKeyboard) {
        report.check("\(Self.presses) presses and releases: edges in order, stamps monotonic and inside [write, read], repeats ignored") {
            let button = try EvdevButton(path: keyboard.path, keyCode: UinputKeyboard.space, grab: false)
            defer { button.close() }
            var edges: [ButtonEdge] = []
            var inside = true
            var repeatEdges = 0
            for _ in 0..<Self.presses {
                for (value, direction) in [(Int32(1), ButtonEdge.Direction.pressed), (0, .released)] {
                    // The kernel keeps microseconds: compare against the write time truncated the same way.
                    let written = now() / 1000 * 1000
                    keyboard.write(UinputKeyboard.space, value)
                    let read = try waitForEdges(button)
                    let readAt = now()
                    edges += read
                    if let edge = read.first {
                        inside = inside && read.count == 1 && edge.direction == direction
                            && (written...readAt).contains(edge.monotonicNanoseconds)
                    } else {
                        inside = false
                    }
                    if direction == .pressed {
                        // Auto-repeat while held: readable, but no edge.
                        keyboard.write(UinputKeyboard.space, 2)
                        keyboard.write(UinputKeyboard.space, 2)
                        repeatEdges += try waitForEdges(button).count
                    }
                }
            }
            let alternating = edges.enumerated().allSatisfy { $0.element.direction == ($0.offset % 2 == 0 ? .pressed : .released) }
            let monotonic = zip(edges, edges.dropFirst()).allSatisfy { $0.monotonicNanoseconds < $1.monotonicNanoseconds }
            return (edges.count == 2 * Self.presses && alternating && monotonic && inside && repeatEdges == 0,
                    "\(edges.count) edges, alternating \(alternating), monotonic \(monotonic), inside [write, read] \(inside), "
                    + "edges from repeats \(repeatEdges)")
        }
    }

    /// Press → user space as the loop sees it (`WakeLatency`: the reader blocked on its own thread).
    private func latency(_ keyboard: UinputKeyboard) {
        report.check("press → user space with the reader blocked in poll on its own thread, as the loop is") {
            let button = try EvdevButton(path: keyboard.path, keyCode: UinputKeyboard.space, grab: false)
            defer { button.close() }
            let latency = WakeLatency.measure(button, presses: Self.presses,
                                              press: { keyboard.write(UinputKeyboard.space, 1) },
                                              release: { keyboard.write(UinputKeyboard.space, 0) })
            report.note("evdev press → user space under TCG (reader blocked in poll, kernel stamp to read): \(latency.summary)")
            return (latency.samples.count == Self.presses && latency.samples[0] >= 0, latency.summary)
        }
    }

    private func longPress(_ keyboard: UinputKeyboard) {
        report.check("a 300 ms hold with auto-repeat is one press and one release; the stamps' difference is the hold as written") {
            let button = try EvdevButton(path: keyboard.path, keyCode: UinputKeyboard.space, grab: false)
            defer { button.close() }
            let pressBefore = now() / 1000 * 1000
            keyboard.write(UinputKeyboard.space, 1)
            let pressAfter = now()
            for step in 1...9 {
                HardwareClock.sleep(untilMonotonicNanoseconds: pressBefore + Int64(step) * 30_000_000)
                keyboard.write(UinputKeyboard.space, 2)
            }
            HardwareClock.sleep(untilMonotonicNanoseconds: pressBefore + 300_000_000)
            let releaseBefore = now() / 1000 * 1000
            keyboard.write(UinputKeyboard.space, 0)
            let releaseAfter = now()
            var edges: [ButtonEdge] = []
            while edges.count < 2, now() - pressBefore < 3_000_000_000 { edges += try waitForEdges(button, timeoutMilliseconds: 500) }
            guard edges.map(\.direction) == [.pressed, .released] else { return (false, "edges \(edges.map(\.direction.rawValue))") }
            let held = edges[1].monotonicNanoseconds - edges[0].monotonicNanoseconds
            // The hold as the kernel stamped it lies between the shortest and longest the writes allow.
            let written = (releaseBefore - pressAfter - 1000)...(releaseAfter - pressBefore)
            // The floor only says "a hold, not a tap": under emulation the press's own write can take
            // 10 ms and more (seen on arm64: 288 ms between the stamps, inside what the writes allow).
            return (written.contains(held) && held >= 250_000_000,
                    "held \(held / 1000) µs by the stamps; the writes allow \(written.lowerBound / 1000)–\(written.upperBound / 1000) µs")
        }
    }

    private func overflow(_ keyboard: UinputKeyboard) {
        report.check("an overflow of the client's buffer (SYN_DROPPED) resyncs to the key's real level") {
            let button = try EvdevButton(path: keyboard.path, keyCode: UinputKeyboard.space, grab: false)
            defer { button.close() }
            // 300 press/release pairs unread overflow evdev's buffer (64 events for a keyboard); end held.
            for _ in 0..<300 {
                keyboard.write(UinputKeyboard.space, 1)
                keyboard.write(UinputKeyboard.space, 0)
            }
            keyboard.write(UinputKeyboard.space, 1)
            let held = try waitForEdges(button)
            let pressedAfterSync = button.isPressed
            let dropped = button.droppedCount
            keyboard.write(UinputKeyboard.space, 0)
            let release = try waitForEdges(button)
            let alternating = held.enumerated().allSatisfy { $0.element.direction == ($0.offset % 2 == 0 ? .pressed : .released) }
            return (dropped >= 1 && pressedAfterSync && held.last?.direction == .pressed && alternating
                        && release.map(\.direction) == [.released],
                    "\(dropped) SYN_DROPPED, \(held.count) edges read, held after resync \(pressedAfterSync), then \(release.map(\.direction.rawValue))")
        }
    }

    private func grabAndErrors(_ keyboard: UinputKeyboard) {
        report.check("grab: a second grab is refused with the fix; a reader without grab sees nothing while grabbed") {
            let grabbed = try EvdevButton(path: keyboard.path, keyCode: UinputKeyboard.space, grab: true)
            defer { grabbed.close() }
            let bystander = try EvdevButton(path: keyboard.path, keyCode: UinputKeyboard.space, grab: false)
            defer { bystander.close() }
            var second: EvdevError?
            do { _ = try EvdevButton(path: keyboard.path, keyCode: UinputKeyboard.space, grab: true) } catch let error as EvdevError { second = error }
            keyboard.write(UinputKeyboard.space, 1)
            keyboard.write(UinputKeyboard.space, 0)
            let owner = try waitForEdges(grabbed)
            let other = try waitForEdges(bystander, timeoutMilliseconds: 100)
            return (second?.kind == .grabbedElsewhere && second?.fix.contains("grab: false") == true
                        && owner.count == 2 && other.isEmpty,
                    "second grab: \(second.map { "\($0.kind)" } ?? "allowed"); grabbing reader \(owner.count) edges, other reader \(other.count)")
        }
        report.check("a key the device lacks is refused, naming the key and the devices that have it") {
            do {
                _ = try EvdevButton(input: EvdevInput(device: .name(Self.name), keyCode: 183, grab: false)) // KEY_F13
                return (false, "opened")
            } catch let error as EvdevError {
                return (error.kind == .noSuchDevice && error.detail.contains("KEY_F13") && error.fix.contains("button.key"),
                        error.description)
            }
        }
        report.check("no such device: the error lists the keyboards found") {
            do {
                _ = try EvdevButton(input: EvdevInput(device: .name("No Such Pedal"), keyCode: UinputKeyboard.space, grab: false))
                return (false, "opened")
            } catch let error as EvdevError {
                return (error.kind == .noSuchDevice && error.found.contains { $0.path == keyboard.path } && error.fix.contains(Self.name),
                        error.description)
            }
        }
    }

    private func unplug(_ keyboard: UinputKeyboard) {
        report.check("unplug: the descriptor hangs up and reading says the device is gone, with the fix") {
            let button = try EvdevButton(path: keyboard.path, keyCode: UinputKeyboard.space, grab: false)
            defer { button.close() }
            keyboard.unplug()
            var entry = pollfd(fd: button.pollDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 2000)
            let hungUp = entry.revents & Int16(POLLHUP | POLLERR) != 0
            var gone: EvdevError?
            do { _ = try button.readEdges() } catch { gone = error as? EvdevError }
            return (hungUp && gone?.kind == .deviceGone && button.isUnplugged(),
                    "revents \(entry.revents), read: \(gone.map { $0.description } ?? "no error")")
        }
    }

    /// Last, because it gives up root for good: an unreadable device gives the permission error with the fix.
    func permissionDenied() {
        guard let keyboard = UinputKeyboard(name: Self.name) else {
            report.check("uinput keyboard for the permission check", false)
            return
        }
        guard setgid(65534) == 0, setuid(65534) == 0 else {
            report.check("permission denied points at the input group and the udev rule", false, "could not drop privileges")
            return
        }
        report.check("permission denied points at the input group and the udev rule") {
            var direct: EvdevError?
            do { _ = try EvdevButton(path: keyboard.path, keyCode: UinputKeyboard.space, grab: false) } catch let error as EvdevError { direct = error }
            var search: EvdevError?
            do { _ = try EvdevDeviceFinder().resolve(.firstKeyboard, keyCode: UinputKeyboard.space) } catch let error as EvdevError { search = error }
            let fix = direct?.fix ?? ""
            return (direct?.kind == .permissionDenied && search?.kind == .permissionDenied
                        && fix.contains("61-chronoception-input.rules") && fix.contains("input"),
                    direct?.description ?? "opened as nobody")
        }
    }
}

