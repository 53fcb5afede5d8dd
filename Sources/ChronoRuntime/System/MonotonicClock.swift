import ChronoCore
import ChronoHardware
#if canImport(Glibc)
import Glibc
#endif

/// Reads CLOCK_MONOTONIC as the core's `MonotonicInstant`: the one clock of every deadline, mark and
/// motor edge. Drivers stamp button edges on the same clock, so everything compares directly.
public enum MonotonicClock {
    public static func now() -> MonotonicInstant {
        MonotonicInstant(nanoseconds: HardwareClock.monotonicNanoseconds())
    }

    /// The session's one wall/monotonic pair (SPEC §4): the wall clock is read between two monotonic
    /// readings and paired with their midpoint, so the pair is off by at most half of that window.
    public static func wallClockAnchor() -> WallClockAnchor {
        var wall = timespec()
        let before = HardwareClock.monotonicNanoseconds()
        clock_gettime(CLOCK_REALTIME, &wall)
        let after = HardwareClock.monotonicNanoseconds()
        let unix = Int64(wall.tv_sec) * 1_000_000_000 + Int64(wall.tv_nsec)
        var seconds = time_t(wall.tv_sec)
        var local = tm()
        localtime_r(&seconds, &local)
        return WallClockAnchor(
            unixNanoseconds: unix,
            monotonic: MonotonicInstant(nanoseconds: before + (after - before) / 2),
            utcOffsetSeconds: Int(local.tm_gmtoff))
    }
}
