import ChronoSync
import GRDB

extension ChronoStore {
    /// When any of `keys` was last written (Unix seconds; nil when none ever was: they are at their
    /// built-in defaults). The daemon compares it with the last session's start after a restart, so a
    /// default changed after that session still applies to the next one (SPEC §6).
    public func lastWritten(_ keys: [SettingKey]) throws(StoreError) -> Int64? {
        guard !keys.isEmpty else { return nil }
        return try read { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(updated_unix_seconds) FROM setting WHERE key IN (\(keys.map { _ in "?" }.joined(separator: ", ")))",
                               arguments: StatementArguments(keys.map(\.rawValue)))
        }
    }
}
