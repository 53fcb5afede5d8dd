import Glibc

/// The local UTC offset from the system's time zone (TZ, /etc/localtime), for the CLI to pass into
/// the store's day-by-day grouping and the runtime's anchors.
public enum LocalTimeZone {
    public static func utcOffsetSeconds(atUnixSeconds seconds: Int64) -> Int {
        var time = time_t(seconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }

    /// The wall clock now, in nanoseconds since the Unix epoch.
    public static func nowUnixNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
