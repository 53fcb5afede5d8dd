import ChronoHardware
import Glibc

/// Drives the real libgpiod drivers against a gpio-sim chip whose lines are:
/// 0 "button" (active-low button), 1 "motor" (active-high motor), 2 active-high button, 3 active-low motor.
struct GpioChecks {
    let chip: SimulatedChip
    let label: String
    let report: CheckReport

    static let debounceMilliseconds = 10

    func run() {
        report.note("libgpiod API v\(LibgpiodAPI.version)")
        buttonEdges()
        bounceBurst()
        activeHighButton()
        motorReadBack()
        errors()
    }

    /// Sleeps long enough for the simulated interrupt to be handled (slow under TCG).
    private func settle(milliseconds: Int64 = 30) {
        HardwareClock.sleep(untilMonotonicNanoseconds: HardwareClock.monotonicNanoseconds() + milliseconds * 1_000_000)
    }

    private func waitForEdges(_ button: GpiodButton, timeoutMilliseconds: Int32 = 2000) throws -> [ButtonEdge] {
        var entry = pollfd(fd: button.pollDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, timeoutMilliseconds)
        return try button.readEdges()
    }

    private func buttonEdges() {
        report.check("button by chip label and line name, active-low, pull-up") {
            let button = try GpiodButton(line: GpioInputLine(chip: label, line: .name("button"), activeLow: true, bias: .pullUp),
                                         debounceMilliseconds: 0)
            defer { button.close() }
            settle()
            let initial = try button.readEdges()
            let pressedAtStart = try button.isPressed()

            let beforePress = HardwareClock.monotonicNanoseconds()
            try chip.pull(line: 0, up: false) // the button shorts the line to ground
            let press = try waitForEdges(button)
            let afterPress = HardwareClock.monotonicNanoseconds()

            let beforeRelease = HardwareClock.monotonicNanoseconds()
            try chip.pull(line: 0, up: true)
            let release = try waitForEdges(button)
            let afterRelease = HardwareClock.monotonicNanoseconds()

            let pressOK = press.count == 1 && press[0].direction == .pressed
                && (beforePress...afterPress).contains(press[0].monotonicNanoseconds)
            let releaseOK = release.count == 1 && release[0].direction == .released
                && (beforeRelease...afterRelease).contains(release[0].monotonicNanoseconds)
            let latency = press.first.map { (afterPress - $0.monotonicNanoseconds) / 1000 } ?? -1
            return (initial.isEmpty && !pressedAtStart && pressOK && releaseOK,
                    "resolved \(button.resolved); edges \((press + release).map(\.direction.rawValue)), "
                    + "kernel stamp to user space \(latency) µs under TCG; stamps inside [write, read] on CLOCK_MONOTONIC")
        }
    }

    private func bounceBurst() {
        report.check("5-edge bounce burst is one press after debounce") {
            let button = try GpiodButton(line: GpioInputLine(chip: label, line: .offset(0), activeLow: true, bias: .pullUp),
                                         debounceMilliseconds: Self.debounceMilliseconds)
            defer { button.close() }
            settle()
            _ = try button.readEdges()
            let start = HardwareClock.monotonicNanoseconds()
            // press, bounce open, close, open, close: 5 edges 1 ms apart, ending pressed
            for (index, up) in [false, true, false, true, false].enumerated() {
                HardwareClock.sleep(untilMonotonicNanoseconds: start + Int64(index) * 1_000_000)
                try chip.pull(line: 0, up: up)
            }
            settle(milliseconds: Int64(Self.debounceMilliseconds) * 3 + 50)
            let raw = try button.readEdges()
            let debounced = ClusterDebouncer(windowNanoseconds: Int64(Self.debounceMilliseconds) * 1_000_000).debounce(raw)
            try chip.pull(line: 0, up: true)
            settle()
            let kernel = button.resolved.kernelDebounceMicroseconds
            let ok = debounced.count == 1 && debounced[0].direction == .pressed
                && debounced[0].monotonicNanoseconds >= start
                && (LibgpiodAPI.version == 1 || kernel == UInt32(Self.debounceMilliseconds * 1000))
            return (ok, "\(raw.count) raw edge(s) from the kernel (kernel debounce \(kernel) µs), \(debounced.count) after debounce")
        }
    }

    private func activeHighButton() {
        report.check("active-high button with pull-down: pull-up is a press") {
            let button = try GpiodButton(line: GpioInputLine(chip: label, line: .offset(2), activeLow: false, bias: .pullDown),
                                         debounceMilliseconds: 0)
            defer { button.close() }
            settle()
            _ = try button.readEdges()
            try chip.pull(line: 2, up: true)
            let press = try waitForEdges(button)
            try chip.pull(line: 2, up: false)
            let release = try waitForEdges(button)
            return (press.map(\.direction) == [.pressed] && release.map(\.direction) == [.released],
                    "edges \(press.map(\.direction.rawValue)) then \(release.map(\.direction.rawValue))")
        }
    }

    private func motorReadBack() {
        report.check("active-high motor: off at request, on, off, released off") {
            // The wiring notes' gate pull-down: what holds the line once it is released.
            try chip.pull(line: 1, up: false)
            let motor = try GpiodMotor(line: GpioOutputLine(chip: label, line: .name("motor"), activeLow: false))
            let atRequest = try chip.value(line: 1)
            try motor.set(on: true)
            let on = try chip.value(line: 1)
            try motor.set(on: false)
            let off = try chip.value(line: 1)
            try motor.set(on: true)
            motor.close()
            let released = try chip.value(line: 1)
            return (atRequest == 0 && on == 1 && off == 0 && released == 0,
                    "values at request/on/off/after close while on: \(atRequest)/\(on)/\(off)/\(released)")
        }
        report.check("active-low motor: line high while off, low while on") {
            // An active-low driver needs a pull-up to stay off once the line is released.
            try chip.pull(line: 3, up: true)
            let motor = try GpiodMotor(line: GpioOutputLine(chip: label, line: .offset(3), activeLow: true))
            let atRequest = try chip.value(line: 3)
            try motor.set(on: true)
            let on = try chip.value(line: 3)
            motor.close()
            let released = try chip.value(line: 3)
            return (atRequest == 1 && on == 0 && released == 1, "values at request/on/after close: \(atRequest)/\(on)/\(released)")
        }
    }

    private func expectError(_ name: String, kind expected: (GpioError.Kind) -> Bool, _ body: () throws(GpioError) -> Void) {
        do {
            try body()
            report.check(name, false, "no error")
        } catch {
            report.check(name, expected(error.kind), error.description)
        }
    }

    private func errors() {
        expectError("no such chip (label)", kind: { $0 == .noSuchChip }) { () throws(GpioError) in
            _ = try GpiodMotor(line: GpioOutputLine(chip: "no-such-chip", line: .offset(0), activeLow: false))
        }
        expectError("no such chip (gpiochip99)", kind: { $0 == .noSuchChip }) { () throws(GpioError) in
            _ = try GpiodMotor(line: GpioOutputLine(chip: "gpiochip99", line: .offset(0), activeLow: false))
        }
        expectError("no such line (offset 99)", kind: { $0 == .noSuchLine }) { () throws(GpioError) in
            _ = try GpiodMotor(line: GpioOutputLine(chip: label, line: .offset(99), activeLow: false))
        }
        expectError("no such line (name)", kind: { $0 == .noSuchLine }) { () throws(GpioError) in
            _ = try GpiodButton(line: GpioInputLine(chip: label, line: .name("no-such-line"), activeLow: false, bias: .asIs),
                                debounceMilliseconds: 0)
        }
        do {
            let holder = try GpiodMotor(line: GpioOutputLine(chip: label, line: .offset(1), activeLow: false), consumer: "hil-holder")
            expectError("line busy names the consumer", kind: { $0 == .lineBusy(consumer: "hil-holder") }) { () throws(GpioError) in
                _ = try GpiodMotor(line: GpioOutputLine(chip: label, line: .offset(1), activeLow: false))
            }
            holder.close()
        } catch {
            report.check("line busy names the consumer", false, "could not take the line first: \(error)")
        }
    }

    /// Last, because it gives up root for good: an unprivileged user gets a permission error with the fix.
    func permissionDenied() {
        guard setgid(65534) == 0, setuid(65534) == 0 else {
            report.check("permission denied points at the udev rule", false, "could not drop privileges")
            return
        }
        expectError("permission denied points at the udev rule", kind: { $0 == .permissionDenied }) { () throws(GpioError) in
            _ = try GpiodMotor(line: GpioOutputLine(chip: label, line: .offset(1), activeLow: false))
        }
    }
}
