import ChronoCore
import CWallClock
import Glibc

/// What the health log needs to know about the wall clock: whether it is synchronised, and a fresh
/// wall/monotonic pair to correct the times of sessions anchored while it was not. A seam so that
/// tests can simulate an unsynchronised clock or a clock that becomes synchronised.
public protocol WallClockStatus: Sendable {
    /// Whether the kernel considers the wall clock synchronised (NTP, or a GPS/RTC discipline).
    func isSynchronised() -> Bool
    /// The wall clock and the monotonic clock read together, now.
    func currentAnchor(utcOffsetSeconds: Int) -> WallClockAnchor
    /// The boot the monotonic clock belongs to (monotonic instants of another boot cannot be compared).
    func bootID() -> String
}

/// The kernel's view through `adjtimex(2)`: `STA_UNSYNC` set, or the return value `TIME_ERROR`, means
/// the clock is not synchronised. A Raspberry Pi without a battery clock boots with a wrong date and
/// stays "unsynchronised" until NTP (or systemd-timesyncd) has set it.
public struct KernelWallClockStatus: WallClockStatus {
    public init() {}

    public func isSynchronised() -> Bool {
        chrono_wall_clock_synchronised() == 1
    }

    public func currentAnchor(utcOffsetSeconds: Int) -> WallClockAnchor {
        var wall = timespec()
        var mono = timespec()
        clock_gettime(CLOCK_MONOTONIC, &mono)
        clock_gettime(CLOCK_REALTIME, &wall)
        return WallClockAnchor(
            unixNanoseconds: Int64(wall.tv_sec) * 1_000_000_000 + Int64(wall.tv_nsec),
            monotonic: MonotonicInstant(nanoseconds: Int64(mono.tv_sec) * 1_000_000_000 + Int64(mono.tv_nsec)),
            utcOffsetSeconds: utcOffsetSeconds)
    }

    public func bootID() -> String { ProcessIdentity.currentBootID }
}

/// Trusts the wall clock whatever the kernel says: the `wall-clock-check off` setting, for desktops
/// and containers whose kernel never reports synchronisation although their time is right.
public struct TrustedWallClockStatus: WallClockStatus {
    let base: any WallClockStatus
    public init(base: any WallClockStatus = KernelWallClockStatus()) { self.base = base }
    public func isSynchronised() -> Bool { true }
    public func currentAnchor(utcOffsetSeconds: Int) -> WallClockAnchor { base.currentAnchor(utcOffsetSeconds: utcOffsetSeconds) }
    public func bootID() -> String { base.bootID() }
}
