import CLinuxSystem
import ChronoCore
#if canImport(Glibc)
import Glibc
#endif

/// A `timerfd` on CLOCK_MONOTONIC that is only ever armed with an absolute instant
/// (`TFD_TIMER_ABSTIME`): the loop's one way to wait for time.
///
/// Why absolute: a relative timer armed "deadline − now" carries the time spent computing `now`
/// into every wait, and repeated waits drift; an absolute expiry does not. Why a timerfd and not a
/// poll timeout: the kernel rounds poll timeouts with timer slack that grows with the timeout
/// (milliseconds for a 10 s wait), while a timerfd is an hrtimer that fires at its instant.
/// An instant already in the past makes the descriptor readable at once.
final class AbsoluteTimer {
    let descriptor: Int32

    init() throws(SystemCallError) {
        let fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard fd >= 0 else { throw SystemCallError("timerfd_create") }
        descriptor = fd
    }

    deinit { Glibc.close(descriptor) }

    /// Arms the timer to expire at `instant` (nil disarms it). Arming also clears an expiry not yet
    /// read (the kernel's timerfd_setup sets its tick count to 0), so a descriptor re-armed before
    /// every wait never needs the read that would acknowledge it.
    func arm(at instant: MonotonicInstant?) throws(SystemCallError) {
        var setting = itimerspec()  // it_interval stays zero: one shot
        if let instant {
            // {0, 0} would disarm; an instant that early is long past, so 1 ns expires just as well.
            let nanoseconds = max(instant.nanoseconds, 1)
            setting.it_value = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        }
        guard timerfd_settime(descriptor, Int32(TFD_TIMER_ABSTIME), &setting, nil) == 0 else {
            throw SystemCallError("timerfd_settime")
        }
    }
}
