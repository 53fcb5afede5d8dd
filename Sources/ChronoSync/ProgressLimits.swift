import ChronoCore

/// How much a progress report shows, the same on the device (`chronoception progress`, the companion)
/// and on the collector (its progress page and API), so the two show as much as each other.
public enum ProgressLimits {
    /// How many intervals a report shows when not narrowed to one.
    public static let intervalCount = ProgressReport.shownIntervalCount
    /// How many sessions its recent list shows.
    public static let recentCount = ProgressReport.recentSessionCount
}
