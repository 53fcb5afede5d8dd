import ChronoCommandLine
import ChronoCore
import ChronoRuntime
import ChronoStore
import Foundation
import Synchronization

/// Makes the store the runtime's `SessionRecorder`: a `running` row at start, one transaction at the
/// end, then the health record. Called on the runtime's writer thread, never on the loop. A store
/// failure is reported on standard error and never stops the device; a health-log failure is reported
/// once (the store remembers it and stops logging until `health enable`).
final class StoreSessionRecorder: SessionRecorder {
    let store: ChronoStore
    /// Where notices go (standard error by default); tests and the daemon may pass their own.
    let report: @Sendable (String) -> Void

    /// Where sessions that could not be saved are kept.
    let unsaved: UnsavedSessionLog

    /// Each running session's start, its wall clock's synchronisation decided, so a session that
    /// cannot be saved is kept in its fallback file with the facts its row would have had.
    private let starts = Mutex<[String: SessionStartRecord]>([:])

    init(store: ChronoStore, unsaved: UnsavedSessionLog = .process, report: @escaping @Sendable (String) -> Void = { printError($0) }) {
        self.store = store
        self.unsaved = unsaved
        self.report = report
    }

    func sessionStarted(_ start: SessionStartRecord) {
        var start = start
        // Settled already behind the product's fan-out (`LiveOptions.recorder`); asked here only when
        // this recorder is used alone.
        start.wallClockSynchronised = start.wallClockSynchronised ?? store.isWallClockSynchronised
        starts.withLock { $0[start.sessionID] = start }
        do {
            try store.recordSessionStarted(start)
        } catch {
            report("warning: could not record the session start: \(error)")
        }
    }

    func sessionFinished(_ finish: SessionFinishRecord) {
        let start = starts.withLock { $0.removeValue(forKey: finish.sessionID) }
        do {
            let result = try store.recordSessionFinished(finish, nowUnixNanoseconds: LocalTimeZone.nowUnixNanoseconds())
            if case .failed(let reason, true) = result.health {
                report("warning: health log: writing failed (\(reason)). The session is saved; health logging is stopped until `chronoception health enable`.")
            }
            // A record held back for the wall clock is said with the session, not only in `health status`.
            if case .owed("clock_unsynchronised", _) = result.health {
                report(HealthNotes.sessionHeldBack)
            }
        } catch {
            // Nothing the person did may be lost: the session goes to a fallback file (and standard
            // error) to be imported later, and the command ends with status 74.
            report("warning: could not save the session: \(error)")
            var whole = finish.withStartFacts(of: start)
            whole.wallClockSynchronised = whole.wallClockSynchronised ?? store.isWallClockSynchronised
            let kept = unsaved.keep(whole, report: report)
            report("warning: the session is kept in \(kept); import it with `chronoception import \(kept)` when the store can be written.")
        }
    }
}
