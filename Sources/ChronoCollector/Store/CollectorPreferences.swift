import ChronoStore
import ChronoSync

/// Preferences set on the collector: the device's own validation and the protocol's Lamport stamp.
public enum CollectorPreferences {
    /// The canonical text of a value, by `SettingKey.canonicalValue`. `fearModeOn` says whether the
    /// device has Fear Mode on (Fear as the default mode needs it).
    public static func canonical(_ key: SettingKey, _ raw: String, fearModeOn: Bool) throws(CollectorError) -> String {
        guard PreferenceMerge.syncedKeys.contains(key.rawValue) else {
            throw .invalidValue("\(key.rawValue) is local to each device and does not sync; the synced settings are \(PreferenceMerge.syncedKeys.sorted().joined(separator: ", ")).")
        }
        let current = StoreSettings(values: [.fearMode: fearModeOn ? "on" : "off"], healthFailure: nil)
        do { return try key.canonicalValue(raw, current: current) } catch { throw .invalidValue(error.description) }
    }

    /// A change made on the collector, given what it holds for the device: validated, stamped one
    /// above every clock seen for the device, origin collector.
    public static func stamp(_ key: SettingKey, _ raw: String, over current: [StampedPreference]) throws(CollectorError) -> StampedPreference {
        let fearModeOn = current.first { $0.key == SettingKey.fearMode.rawValue }?.value == "on"
        let value = try canonical(key, raw, fearModeOn: fearModeOn)
        return StampedPreference(key: key.rawValue, value: value, clock: PreferenceMerge.nextClock(after: current), origin: .collector)
    }

    /// The setting a `collector preferences set NAME KEY VALUE` names; the error lists the keys.
    public static func key(_ text: String) throws(CollectorError) -> SettingKey {
        guard let key = SettingKey(rawValue: text), PreferenceMerge.syncedKeys.contains(text) else {
            throw .invalidValue("'\(text)' is not a synced setting; use one of \(PreferenceMerge.syncedKeys.sorted().joined(separator: ", ")).")
        }
        return key
    }
}
