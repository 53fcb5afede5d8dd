import ChronoCore
import ChronoRuntime

/// Tells the sync pusher a completed session was saved. Listed after the store's recorder in the
/// daemon's fan-out (on the runtime's writer thread), so the session is in the outbox by then.
final class SyncNudgingRecorder: SessionRecorder {
    let pusher: SyncPusher

    init(pusher: SyncPusher) { self.pusher = pusher }

    func sessionStarted(_ start: SessionStartRecord) {}

    func sessionFinished(_ finish: SessionFinishRecord) {
        if finish.outcome.status == .completed { pusher.nudge() }
    }
}
