/// Who made a preference change. On equal clocks the collector wins, so two ends that edited the same
/// setting concurrently agree on one value without asking each other.
public enum PreferenceOrigin: String, Codable, Hashable, Sendable, Comparable {
    case device
    case collector

    public static func < (lhs: PreferenceOrigin, rhs: PreferenceOrigin) -> Bool { lhs == .device && rhs == .collector }
}

/// A setting's value with the Lamport stamp of the change that set it.
///
/// Why a Lamport clock and not time: a Pi without network has no trustworthy wall clock (it may start
/// in 1970 or drift for days), so "last writer" is decided by causality instead. Each end keeps, per
/// device, the highest clock it has seen; a local change takes `highest + 1`. A change made after
/// seeing another therefore always wins over it; two changes made without seeing each other (the same
/// clock) are ordered by origin, the collector first. Both ends run the same `PreferenceMerge`, so
/// they converge after one exchange.
public struct StampedPreference: Codable, Hashable, Sendable {
    /// A `SettingKey` raw value (`default-interval`, …); values are the setting's canonical text.
    public var key: String
    public var value: String
    public var clock: Int64
    public var origin: PreferenceOrigin

    public init(key: String, value: String, clock: Int64, origin: PreferenceOrigin) {
        self.key = key
        self.value = value
        self.clock = clock
        self.origin = origin
    }

    /// Whether this change wins over `other` (for the same key).
    public func wins(over other: StampedPreference) -> Bool {
        (clock, origin) > (other.clock, other.origin)
    }
}

/// The one last-writer-wins rule for preferences, used by the device and the collector alike.
public enum PreferenceMerge {
    /// The settings that sync. The health log's file is a path on the device and the wall-clock check
    /// is about the device's own clock: both stay local.
    public static let syncedKeys: Set<String> = [
        "default-mode", "default-interval", "default-attempts", "default-repetitions",
        "fear-mode", "fear-threshold", "health-logging", "auto-start", "long-press-ms",
    ]

    /// The largest clock either end accepts: 2⁵³ − 1, exact in every JSON reader, and so far below
    /// `Int64.max` that `nextClock` can never overflow. A clock from outside beyond it (or negative)
    /// is refused at the boundary (the collector's ingest answers 422) and ignored by `merge`.
    public static let maximumClock: Int64 = 9_007_199_254_740_991

    /// Whether `clock` is one an end accepts.
    public static func acceptsClock(_ clock: Int64) -> Bool { (0...maximumClock).contains(clock) }

    /// The winner for every key in either list, sorted by key. Stamps with clocks out of range are
    /// ignored, so a forged one can neither win forever nor make the next local change overflow.
    public static func merge(_ mine: [StampedPreference], _ theirs: [StampedPreference]) -> [StampedPreference] {
        var winners: [String: StampedPreference] = [:]
        for preference in mine + theirs where syncedKeys.contains(preference.key) && acceptsClock(preference.clock) {
            if let current = winners[preference.key], !preference.wins(over: current) { continue }
            winners[preference.key] = preference
        }
        return winners.values.sorted { $0.key < $1.key }
    }

    /// The clock for a new local change: one more than anything seen (held at `maximumClock`, which
    /// 2⁵³ local changes would take to reach).
    public static func nextClock(after seen: [StampedPreference]) -> Int64 {
        let highest = seen.map(\.clock).filter(acceptsClock).max() ?? 0
        return min(highest, maximumClock - 1) + 1
    }
}
