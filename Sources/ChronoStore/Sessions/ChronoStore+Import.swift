import ChronoCore
import GRDB

extension ChronoStore {
    /// Makes a session that crash recovery marked `interrupted` finishable again, so that a finished
    /// session kept in a fallback file (its finish could not be written: a full disk) can be imported
    /// over it. Only a row recovery wrote is reopened — its reason is recovery's, it has no attempts
    /// and its health record was never written — so nothing the user saw as finished is ever changed,
    /// and no health record can be written twice. Returns whether the row was reopened.
    @discardableResult
    public func reopenRecoveredSession(_ sessionID: String) throws(StoreError) -> Bool {
        try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT status, reason FROM session WHERE id = ?", arguments: [sessionID]),
                  row["status"] as String? == "interrupted",
                  (row["reason"] as String?)?.hasPrefix("The program stopped before the session ended") == true else { return false }
            let attempts = try Int.fetchOne(db, sql: "SELECT count(*) FROM attempt WHERE session_id = ?", arguments: [sessionID]) ?? 0
            let boundaries = try Int.fetchOne(db, sql: "SELECT count(*) FROM passive_boundary WHERE session_id = ?", arguments: [sessionID]) ?? 0
            let ledger = try String.fetchOne(db, sql: "SELECT state FROM health_ledger WHERE session_id = ?", arguments: [sessionID])
            guard attempts == 0, boundaries == 0, ledger != "written" else { return false }
            try db.execute(sql: "DELETE FROM health_ledger WHERE session_id = ?", arguments: [sessionID])
            try db.execute(sql: "UPDATE session SET status = 'running', reason = NULL WHERE id = ?", arguments: [sessionID])
            return true
        }
    }
}
