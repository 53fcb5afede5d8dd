import ChronoSync

/// When the daemon's pusher tries again: `SyncProtocol.retryDelaySeconds` (5 s doubling to 15 min)
/// plus up to 20 % jitter derived from the device's UUID, so a cohort of devices that lost the same
/// collector at the same moment do not all come back in the same second. Deterministic per device
/// and failure count, so a test can state it.
enum SyncRetrySchedule {
    /// While enrolled and caught up: how often the pusher asks anyway, so preferences changed on the
    /// collector arrive even on a day without sessions.
    static let idlePollSeconds = 15 * 60

    /// The wait after `failures` consecutive failures, in milliseconds (0 for none).
    static func delayMilliseconds(afterFailures failures: Int, deviceID: String) -> Int64 {
        let base = Int64(SyncProtocol.retryDelaySeconds(afterFailures: failures)) * 1000
        guard base > 0 else { return 0 }
        // FNV-1a over the UUID and the failure count: stable across runs and platforms (Swift's
        // Hasher is seeded per process).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array(deviceID.utf8) + [UInt8(truncatingIfNeeded: failures)] {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let jitter = Int64(hash % 1000) * base / 5000
        return base + jitter
    }
}
