import ChronoHardware
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Test support for whole-program tests: passes every command on to a real motor driver and appends
/// it, with its CLOCK_MONOTONIC instant, to a log file as `on <ns>`, `off <ns>`, `close <ns>` — one
/// `write(2)` per line, so the file is complete up to the moment a process is stopped. The command
/// line only offers it in test mode (it writes to a file on the loop thread).
public final class LoggingMotor: MotorOutput, Sendable {
    private let wrapped: UncheckedMotor
    private let descriptor: Int32
    private let lock = Mutex(())

    public init(wrapping motor: MotorOutput, logPath: String) {
        wrapped = UncheckedMotor(motor: motor)
        descriptor = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    }

    deinit { if descriptor >= 0 { Glibc.close(descriptor) } }

    public func set(on: Bool) throws {
        try wrapped.motor.set(on: on)
        append(on ? "on" : "off")
    }

    public func close() {
        wrapped.motor.close()
        append("close")
    }

    private func append(_ word: String) {
        guard descriptor >= 0 else { return }
        let line = Array("\(word) \(HardwareClock.monotonicNanoseconds())\n".utf8)
        lock.withLock { _ in _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } }
    }
}

/// A motor driver used under `LoggingMotor`'s lock discipline (the loop thread, then clean-up).
private struct UncheckedMotor: @unchecked Sendable {
    let motor: MotorOutput
}
