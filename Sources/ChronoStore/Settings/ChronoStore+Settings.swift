import ChronoCore
import ChronoSync
import GRDB

extension ChronoStore {
    /// Not a user setting: the reason health logging stopped, kept until logging is enabled again.
    static let healthFailureKey = "health-logging.failure"

    /// Every setting, defaults filled in.
    public func settings() throws(StoreError) -> StoreSettings {
        try read { db in try settings(db) }
    }

    func settings(_ db: Database) throws -> StoreSettings {
        var stored: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM setting") {
            stored[row[0]] = row[1]
        }
        var values: [SettingKey: String] = [:]
        for key in SettingKey.allCases { values[key] = stored[key.rawValue] ?? key.defaultValue(location: location) }
        return StoreSettings(values: values, healthFailure: stored[Self.healthFailureKey])
    }

    /// Validates and stores a setting; returns the stored (canonical) value. Turning health logging on
    /// or off clears a failure: enabling is how the user asks to try again (SPEC §4). A synced
    /// setting takes the next preference clock, origin device (docs/SYNC.md), in the same transaction.
    @discardableResult
    public func setSetting(_ key: SettingKey, to raw: String, nowUnixSeconds: Int64) throws(StoreError) -> String {
        let current = try settings()
        let value = try key.canonicalValue(raw, current: current)
        if key == .healthLogFile, let owner = StoreOwnedFiles(location: location, healthLogPath: nil).owner(of: value) {
            throw .invalidValue("health-log-file cannot be \(owner): the log would be written into the store. Choose a file outside the store's own files, for example \(location.defaultHealthLogPath).")
        }
        try write { db in
            let changed = try storeSettingValue(db, key, value, nowUnixSeconds: nowUnixSeconds)
            try stampLocalChange(db, keys: [key] + changed)
        }
        return value
    }

    /// Stores an accepted (canonical) value with what it implies; returns the other settings it
    /// changed. Shared by `setSetting` and the collector's preferences, so both behave alike.
    func storeSettingValue(_ db: Database, _ key: SettingKey, _ value: String, nowUnixSeconds: Int64) throws -> [SettingKey] {
        try db.execute(
            sql: "INSERT INTO setting (key, value, updated_unix_seconds) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_unix_seconds = excluded.updated_unix_seconds",
            arguments: [key.rawValue, value, nowUnixSeconds])
        if key == .healthLogging {
            try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [Self.healthFailureKey])
        }
        // Turning Fear Mode off must not leave it as the default mode: the default becomes what
        // `FearPermission` runs a Fear default as without the opt-in (Challenge).
        if key == .fearMode,
           let stored = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [SettingKey.defaultMode.rawValue])
               .flatMap(SessionMode.init(rawValue:)),
           case let runs = FearPermission(optIn: false, settingOn: value == "on").mode(fromDefaults: stored), runs != stored {
            try db.execute(sql: "UPDATE setting SET value = ?, updated_unix_seconds = ? WHERE key = ?",
                           arguments: [runs.rawValue, nowUnixSeconds, SettingKey.defaultMode.rawValue])
            return [.defaultMode]
        }
        return []
    }

    /// Records that health logging failed; returns true only the first time (the failure is logged
    /// once, then logging stays stopped until enabled again).
    func recordHealthFailure(_ reason: String, _ db: Database, nowUnixSeconds: Int64) throws -> Bool {
        guard try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [Self.healthFailureKey]) == nil else {
            return false
        }
        try db.execute(sql: "INSERT INTO setting (key, value, updated_unix_seconds) VALUES (?, ?, ?)",
                       arguments: [Self.healthFailureKey, reason, nowUnixSeconds])
        return true
    }
}
