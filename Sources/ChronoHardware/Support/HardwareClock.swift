#if canImport(Glibc)
import Glibc
#endif

/// Reads CLOCK_MONOTONIC as raw Int64 nanoseconds: the same clock and unit as the kernel's GPIO
/// edge timestamps, so instants from drivers, mocks and the runtime compare directly.
public enum HardwareClock {
    /// CLOCK_MONOTONIC now, in nanoseconds.
    public static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// Sleeps until the given CLOCK_MONOTONIC instant (absolute, so delays never accumulate).
    /// For bring-up tools and mocks; the session runtime waits on its own timerfd instead.
    public static func sleep(untilMonotonicNanoseconds deadline: Int64) {
        var target = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
    }
}
