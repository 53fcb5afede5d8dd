import ChronoCore

/// Whether a stored session's health record can be written now, and with which times.
///
/// A session anchored while the wall clock was synchronised keeps its own anchor. One anchored while it
/// was not (a Pi that booted with a stale date) is held back until the kernel says the clock is
/// synchronised; then, if the device has not restarted since, the session's own monotonic marks are
/// re-anchored through a fresh wall/monotonic pair of the same boot — the corrected times. After a
/// restart the monotonic clock of that boot is gone and the times cannot be corrected: such a record is
/// skipped, because a misleading record is worse than none (HealthKit seed §2). With
/// `wall-clock-check off` every anchor is trusted as it is.
///
/// This is the reading path: it decides from a session read back from the store, for backfill,
/// held records, orphaned records and export. A session being saved does not come here unless its
/// anchor is one the clock may still correct; its record is decided once where it is saved.
enum HealthRecordAvailability {
    case record(HealthRecord)
    case never(reason: String)
    case held(reason: String)

    static let heldReason = "Held back: the wall clock is not synchronised yet; written with corrected times once it is."

    /// `resultsWithheld`: the store's answer (`withheldResultSessionIDs`) for this session now.
    static func of(_ session: StoredSession, clock: any WallClockStatus, checkClock: Bool,
                   resultsWithheld: Bool) -> HealthRecordAvailability {
        if session.isRunning { return .never(reason: "The session is still running.") }
        let decision = HealthRecordBuilder.decide(for: session.outcome, sessionID: session.sessionID,
                                                  device: session.board, anchor: session.anchor, resultsWithheld: resultsWithheld)
        guard case .record(let record) = decision else {
            if case .none(let reason) = decision { return .never(reason: reason) }
            return .never(reason: "No record.")
        }
        if session.wallClockSynchronised || !checkClock { return .record(record) }
        guard clock.isSynchronised() else { return .held(reason: heldReason) }
        guard session.bootID == clock.bootID() else {
            return .never(reason: "The wall clock was not synchronised during the session and the device restarted before it was, so the session's times cannot be corrected.")
        }
        let corrected = clock.currentAnchor(utcOffsetSeconds: session.anchor.utcOffsetSeconds)
        if case .record(let correctedRecord) = HealthRecordBuilder.decide(
            for: session.outcome, sessionID: session.sessionID, device: session.board, anchor: corrected, resultsWithheld: resultsWithheld) {
            return .record(correctedRecord)
        }
        return .never(reason: "No record.")
    }
}
