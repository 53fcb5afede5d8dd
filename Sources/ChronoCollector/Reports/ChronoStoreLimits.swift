import ChronoStore

/// The device's progress limits, so the collector's report shows as much as the device's.
enum ChronoStoreLimits {
    static var progressIntervalCount: Int { ChronoStore.progressIntervalCount }
    static var progressRecentCount: Int { ChronoStore.progressRecentCount }
}
