import ChronoCore
import ChronoSync

extension StoredSession {
    /// The session record of a finished session (`SyncedSession`, the one text form of a session),
    /// as the outbox sends it and the API shows it; nil while the session is running.
    public var record: SyncedSession? {
        guard !isRunning else { return nil }
        return SyncedSession(sessionID: sessionID, outcome: outcome, anchor: anchor, board: board,
                             wallClockSynchronised: wallClockSynchronised, soundAudibleAtStart: soundAudibleAtStart,
                             boundariesFired: boundariesFired, note: note, study: study)
    }
}
