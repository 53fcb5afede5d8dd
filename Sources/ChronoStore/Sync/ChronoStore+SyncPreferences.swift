import ChronoSync
import GRDB

extension ChronoStore {
    /// Every synced setting that has a stamp, with its current value: what a batch carries.
    public func syncPreferences() throws(StoreError) -> [StampedPreference] {
        try read { db in try stampedPreferences(db) }
    }

    /// A stamp whose clock is outside `PreferenceMerge.acceptsClock` (kept by a build that stored a
    /// collector's clocks unchecked) is left out, so it is never sent again for a collector to refuse;
    /// the next change of that setting stamps it anew.
    func stampedPreferences(_ db: Database) throws -> [StampedPreference] {
        let current = try settings(db)
        return try Row.fetchAll(db, sql: "SELECT key, clock, origin FROM sync_preference ORDER BY key").compactMap { row in
            guard let key = SettingKey(rawValue: row["key"] as String), let origin = PreferenceOrigin(rawValue: row["origin"] as String),
                  PreferenceMerge.acceptsClock(row["clock"]) else { return nil }
            return StampedPreference(key: key.rawValue, value: current[key], clock: row["clock"], origin: origin)
        }
    }

    /// Stamps a local change of `keys` (the synced ones) with the next Lamport clock, origin device.
    /// Called by `setSetting`, the one place a local setting changes.
    func stampLocalChange(_ db: Database, keys: [SettingKey]) throws {
        let synced = keys.filter { PreferenceMerge.syncedKeys.contains($0.rawValue) }
        guard !synced.isEmpty else { return }
        let clock = try nextPreferenceClock(db)
        for key in synced {
            try setStamp(db, StampedPreference(key: key.rawValue, value: "", clock: clock, origin: .device))
        }
    }

    /// One more than any clock seen: the stamps present and the high-water mark kept through
    /// `delete-all` (`PreferenceMerge.nextClock` over both).
    private func nextPreferenceClock(_ db: Database) throws -> Int64 {
        // An out-of-range high-water mark (see `stampedPreferences`) is ignored by `nextClock`.
        let highest = try Int64.fetchOne(db, sql: "SELECT highest_clock FROM sync_device") ?? 0
        var seen = try stampedPreferences(db)
        seen.append(StampedPreference(key: "", value: "", clock: highest, origin: .device))
        return PreferenceMerge.nextClock(after: seen)
    }

    private func setStamp(_ db: Database, _ stamp: StampedPreference) throws {
        try db.execute(sql: """
            INSERT INTO sync_preference (key, clock, origin) VALUES (?, ?, ?)
            ON CONFLICT (key) DO UPDATE SET clock = excluded.clock, origin = excluded.origin
            """, arguments: [stamp.key, stamp.clock, stamp.origin.rawValue])
        try db.execute(sql: "UPDATE sync_device SET highest_clock = MAX(highest_clock, ?)", arguments: [stamp.clock])
    }

    /// Applies the collector's winners that win over this device's stamps, each through
    /// `SettingKey.canonicalValue` like a local `settings set`. A value the device refuses is
    /// reported and not applied (its stamp is not taken either, so the device's own value stays
    /// and goes on being offered). Every clock received counts as seen; a clock `PreferenceMerge`
    /// refuses is neither seen nor applied (the receipt's validator refuses it before; this keeps the
    /// high-water mark from ever rising past the range whoever calls).
    func applyReceivedPreferences(_ db: Database, _ received: [StampedPreference], nowUnixSeconds: Int64) throws -> SyncPreferenceResult {
        var result = SyncPreferenceResult(applied: [], refused: [])
        var mine: [String: StampedPreference] = [:]
        for stamp in try stampedPreferences(db) { mine[stamp.key] = stamp }
        // fear-mode first: default-mode `fear` is accepted only once Fear Mode is on.
        // A clock of 0 is in range but older than every change (stamps start at 1, the table's CHECK):
        // it wins nothing, so it is not applied either.
        let ordered = received.filter { PreferenceMerge.syncedKeys.contains($0.key) && PreferenceMerge.acceptsClock($0.clock) && $0.clock > 0 }
            .sorted { ($0.key == SettingKey.fearMode.rawValue ? 0 : 1, $0.key) < ($1.key == SettingKey.fearMode.rawValue ? 0 : 1, $1.key) }
        for preference in ordered {
            try db.execute(sql: "UPDATE sync_device SET highest_clock = MAX(highest_clock, ?)", arguments: [preference.clock])
            guard let key = SettingKey(rawValue: preference.key) else { continue }
            if let own = mine[preference.key], !preference.wins(over: own) { continue }
            let current = try settings(db)
            let value: String
            do {
                value = try key.canonicalValue(preference.value, current: current)
            } catch {
                result.refused.append("\(key.rawValue) '\(preference.value)' from the collector was refused: \(error.description)")
                continue
            }
            let sideEffects = try storeSettingValue(db, key, value, nowUnixSeconds: nowUnixSeconds)
            try setStamp(db, preference)
            try stampLocalChange(db, keys: sideEffects)
            result.applied.append("\(key.rawValue) = \(value)")
        }
        return result
    }

    /// The highest preference clock this device has seen (`sync_device.highest_clock`): the next
    /// local change takes one more. Kept through `delete-all`.
    public func syncHighestClock() throws(StoreError) -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT highest_clock FROM sync_device") ?? 0 }
    }
}
