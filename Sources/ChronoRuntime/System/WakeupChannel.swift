import CLinuxSystem
#if canImport(Glibc)
import Glibc
#endif

/// An `eventfd` other threads write to wake the loop (a stop request, the sound thread reporting that
/// sound was lost). The message itself travels in a mailbox; this only makes the loop's wait return.
final class WakeupChannel: Sendable {
    let descriptor: Int32

    init() throws(SystemCallError) {
        let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard fd >= 0 else { throw SystemCallError("eventfd") }
        descriptor = fd
    }

    deinit { Glibc.close(descriptor) }

    /// Makes the descriptor readable. Never blocks (the counter saturates long before it could).
    func signal() {
        var one: UInt64 = 1
        _ = write(descriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// Resets the counter so the descriptor stops being readable.
    func drain() {
        var count: UInt64 = 0
        _ = read(descriptor, &count, MemoryLayout<UInt64>.size)
    }
}
