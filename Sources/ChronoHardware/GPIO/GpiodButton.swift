import CGPIOD
import Synchronization

/// A push button on a GPIO line, read through libgpiod (API v1 or v2, whichever was built against).
///
/// The line is requested as an input with edge events on both edges, the board's bias and polarity,
/// and — with API v2 — the kernel's debounce and the CLOCK_MONOTONIC event clock. Each edge carries the
/// kernel's timestamp of the interrupt, not the time it was read. The session core debounces again in
/// every case, so API v1 (no kernel debounce) behaves the same.
///
/// Thread-safe: calls are serialised, so another thread may `close()` it while the loop reads.
public final class GpiodButton: ButtonInput, Sendable {
    /// Where the request ended up (chip path, label, offset, name, kernel debounce).
    public let resolved: ResolvedGpioLine
    private let handle: Mutex<ShimHandle?>
    private let descriptor: Int32

    /// Requests the line. Throws a `GpioError` that says what is wrong and how to fix it.
    public init(line: GpioInputLine, debounceMilliseconds: Int, role: String = "button",
                consumer: String = "chronoception") throws(GpioError) {
        var resolved = chrono_gpiod_resolved()
        var error = chrono_gpiod_error()
        let handle = withLineSpec(chip: line.chip, line: line.line, activeLow: line.activeLow, bias: line.bias,
                                  debounceMicroseconds: Self.debounceMicroseconds(milliseconds: debounceMilliseconds),
                                  consumer: consumer) { spec in
            chrono_gpiod_input_open(spec, &resolved, &error)
        }
        guard let handle else { throw GpioError(error, role: role, requestedChip: line.chip) }
        self.handle = Mutex(ShimHandle(pointer: handle))
        self.resolved = ResolvedGpioLine(resolved)
        self.descriptor = chrono_gpiod_input_fd(handle)
    }

    /// The kernel debounce the line is requested with for `milliseconds` (negative: none).
    public static func debounceMicroseconds(milliseconds: Int) -> UInt32 {
        UInt32(max(0, milliseconds)) * 1000
    }

    deinit { close() }

    /// The line request's event descriptor: readable while edges are queued. -1 after `close()`.
    public var pollDescriptor: Int32 { handle.withLock { $0 == nil ? -1 : descriptor } }

    public func readEdges() throws -> [ButtonEdge] {
        try handle.withLock { handle throws -> [ButtonEdge] in
            guard let handle else { return [] }
            return try Self.drain(handle.pointer, chip: resolved.chipPath)
        }
    }

    private static func drain(_ handle: OpaquePointer, chip: String) throws -> [ButtonEdge] {
        var edges: [ButtonEdge] = []
        var buffer = [chrono_gpiod_edge](repeating: chrono_gpiod_edge(), count: 16)
        while true {
            var error = chrono_gpiod_error()
            let count = chrono_gpiod_input_read(handle, &buffer, Int32(buffer.count), &error)
            if count < 0 { throw GpioError(error, role: "button", requestedChip: chip) }
            for edge in buffer.prefix(Int(count)) {
                edges.append(ButtonEdge(edge.active ? .pressed : .released, at: Int64(bitPattern: edge.timestamp_ns)))
            }
            if count < buffer.count { return edges }
        }
    }

    /// Whether the button is held down right now (the line's logical level).
    public func isPressed() throws -> Bool {
        try handle.withLock { handle throws -> Bool in
            guard let handle else { return false }
            var error = chrono_gpiod_error()
            let level = chrono_gpiod_input_level(handle.pointer, &error)
            if level < 0 { throw GpioError(error, role: "button", requestedChip: resolved.chipPath) }
            return level == 1
        }
    }

    public func close() {
        handle.withLock { handle in
            if let open = handle { chrono_gpiod_input_close(open.pointer) }
            handle = nil
        }
    }
}
