import ChronoCore

/// Delivering the health record of a session being saved (SPEC §4). The record arrives decided: it
/// was built once, from the session in hand, where the session was saved (`recordSessionFinished`),
/// and is written as it is — no row is read back and nothing is decided again. The one exception is a
/// session anchored while the wall clock was not synchronised: its times may need correcting through
/// the session's own monotonic marks, which is the reading path backfill uses too.
extension ChronoStore {
    /// Writes `record` if logging allows, and keeps the ledger: written, or owed with the reason.
    func deliverHealthRecord(_ record: HealthRecord, settings: StoreSettings,
                             nowUnixNanoseconds now: Int64) throws(StoreError) -> HealthDelivery {
        let sessionID = record.sessionID
        if !settings.healthLoggingEnabled {
            let reason = "Health logging was off; `chronoception health backfill` writes it after `health enable`."
            try write { db in try setLedger(db, sessionID: sessionID, state: .owed, code: "logging_off", reason: reason, now: now) }
            return .owed(code: "logging_off", reason: reason)
        }
        if let failure = settings.healthFailure {
            let reason = "Health logging stopped after a failure (\(failure)); run `chronoception health enable`, then `health backfill`."
            try write { db in try setLedger(db, sessionID: sessionID, state: .owed, code: "logging_failing", reason: reason, now: now) }
            return .owed(code: "logging_failing", reason: reason)
        }
        do {
            try healthLogTarget(settings.healthLogPath).append(line: record.jsonLine)
        } catch {
            let first = try write { db in
                try setLedger(db, sessionID: sessionID, state: .owed, code: "write_failed", reason: "Writing failed: \(error.reason)", now: now)
                return try recordHealthFailure(error.reason, db, nowUnixSeconds: now / 1_000_000_000)
            }
            return .failed(reason: error.reason, firstFailure: first)
        }
        try write { db in try setLedger(db, sessionID: sessionID, state: .written, code: nil, reason: nil, now: now, written: true) }
        return .written
    }

    /// The reading path for a session just saved whose anchor was taken while the wall clock was not
    /// synchronised: the stored session decides whether its record is held back, skipped (the device
    /// restarted since) or written with corrected times (`HealthRecordAvailability`).
    func deliverReadingBack(sessionID: String, nowUnixNanoseconds now: Int64) throws(StoreError) -> HealthDelivery {
        let settings = try settings()
        let session = try session(id: sessionID)
        let withheld = try withheldResultSessionIDs(nowUnixNanoseconds: now).contains(sessionID)
        switch HealthRecordAvailability.of(session, clock: effectiveClock(settings), checkClock: settings.wallClockCheck,
                                           resultsWithheld: withheld) {
        case .never(let reason):
            try write { db in try setLedger(db, sessionID: sessionID, state: .skipped, code: "not_eligible", reason: reason, now: now) }
            return .skipped(reason: reason)
        case .held(let reason):
            try write { db in try setLedger(db, sessionID: sessionID, state: .owed, code: "clock_unsynchronised", reason: reason, now: now) }
            return .owed(code: "clock_unsynchronised", reason: reason)
        case .record(let record):
            return try deliverHealthRecord(record, settings: settings, nowUnixNanoseconds: now)
        }
    }
}
