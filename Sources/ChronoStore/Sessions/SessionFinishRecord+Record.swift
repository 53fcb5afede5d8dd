import ChronoCore
import ChronoSync

extension SessionFinishRecord {
    /// The session record of this finish (`SyncedSession`, the one text form of a session), for the
    /// fallback file and `--json-lines`. A start fact the finish leaves unknown is written as the store
    /// would assume it: sound audible unless a Fear session's sound did not play, and the wall clock
    /// unsynchronised (the health log then holds the record back rather than trust an unchecked time).
    /// The daemon's recorders fill both from the session's start.
    public var record: SyncedSession {
        SyncedSession(sessionID: sessionID, outcome: outcome, anchor: anchor, board: board,
                      wallClockSynchronised: wallClockSynchronised ?? false, soundAudibleAtStart: assumedSoundAudibleAtStart,
                      boundariesFired: boundariesFired, study: study)
    }
}
