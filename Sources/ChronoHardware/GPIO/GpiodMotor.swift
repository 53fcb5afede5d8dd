import CGPIOD
import Synchronization

/// A vibration motor (through a transistor or MOSFET) on a GPIO output line, driven through libgpiod.
///
/// The line is requested already inactive, so the motor never twitches at start-up, and `close()`
/// drives it inactive before releasing it. The driver enforces no timing: the runtime switches the
/// motor off within the board's `safe_max_on_ms`. A process killed with SIGKILL cannot switch anything
/// off; the gate pull-down in the board's wiring notes is what keeps the motor off then.
///
/// Thread-safe: calls are serialised (the loop drives it; `close()` may come from the command's thread
/// after the loop has ended). There is no watchdog thread: the loop's `MotorGate` enforces the limit.
public final class GpiodMotor: MotorOutput, Sendable {
    /// Where the request ended up.
    public let resolved: ResolvedGpioLine
    private let handle: Mutex<ShimHandle?>
    private let role: String

    /// Requests the line as an output, inactive. Throws a `GpioError` that says what is wrong and how to fix it.
    public init(line: GpioOutputLine, role: String = "motor", consumer: String = "chronoception") throws(GpioError) {
        var resolved = chrono_gpiod_resolved()
        var error = chrono_gpiod_error()
        let handle = withLineSpec(chip: line.chip, line: line.line, activeLow: line.activeLow, bias: .asIs,
                                  debounceMicroseconds: 0, consumer: consumer) { spec in
            chrono_gpiod_output_open(spec, &resolved, &error)
        }
        guard let handle else { throw GpioError(error, role: role, requestedChip: line.chip) }
        self.handle = Mutex(ShimHandle(pointer: handle))
        self.resolved = ResolvedGpioLine(resolved)
        self.role = role
    }

    deinit { close() }

    public func set(on: Bool) throws {
        try handle.withLock { handle throws -> Void in
            guard let handle else {
                throw GpioError(kind: .system(errno: 9 /* EBADF */), role: role, chip: resolved.chipPath,
                                detail: "the \(role) line was already released")
            }
            var error = chrono_gpiod_error()
            if chrono_gpiod_output_set(handle.pointer, on, &error) < 0 {
                throw GpioError(error, role: role, requestedChip: resolved.chipPath)
            }
        }
    }

    public func close() {
        handle.withLock { handle in
            if let open = handle { chrono_gpiod_output_close(open.pointer) }
            handle = nil
        }
    }
}
