import ChronoCore
import ChronoTesting
import Synchronization
@testable import ChronoRuntime

/// The daemon's controller on a virtual clock with every action it asked for kept: requests posted at
/// exact instants, button edges and deadlines fed as the real loop feeds them, off-loop jobs (replies,
/// snapshot refreshes) run at once. Shared by the controller tests (pairing, the next session).
class ControllerRig {
    let controller: DeviceDaemonController
    let keeper: SnapshotKeeper
    let recorder = RecordingRecorder()
    private(set) var actions: [LoopAction] = []

    init(library: DeviceLibrary, startCue: HapticCue? = nil) {
        keeper = SnapshotKeeper(library: library)
        controller = DeviceDaemonController(keeper: keeper, board: "test", pressHint: "press",
                                            soundStatus: { .inaudible(reason: "none") }, startCue: startCue)
        take(controller.start(at: MonotonicInstant(nanoseconds: 0)))
    }

    /// Over a library that always offers `configuration`.
    convenience init(_ configuration: SessionConfiguration, startCue: HapticCue? = nil) {
        self.init(library: InMemoryDeviceLibrary(startingConfiguration: configuration, healthStatus: "on"), startCue: startCue)
    }

    func take(_ batch: [LoopAction]) {
        actions += batch
        for action in batch {
            switch action {
            case .offLoop(let job): job()
            case .sessionStarted(let record): recorder.sessionStarted(record)
            case .sessionFinished(let record): recorder.sessionFinished(record)
            default: break
            }
        }
    }

    func ask(_ request: DeviceAction, at instant: MonotonicInstant) -> DeviceReply? {
        let answer = Mutex<DeviceReply?>(nil)
        take(controller.receive(.request(request, reply: { reply in answer.withLock { $0 = reply } }), at: instant))
        return answer.withLock { $0 }
    }

    /// What the store watcher does when a setting commits: a new snapshot, then the loop is woken.
    func settingsChanged(at instant: MonotonicInstant) {
        keeper.refresh()
        take(controller.receive(.snapshotChanged, at: instant))
    }

    /// Feeds button edges (and every deadline) up to `end`.
    func feed(_ inputs: [SessionEvent], until end: MonotonicInstant) {
        EventFeeding.feed(inputs, deadlinesUpTo: end, nextDeadline: { controller.nextDeadline }) { event in
            take(controller.handle(event))
            return true
        }
    }

    var lines: [String] { actions.compactMap { if case .console(let line) = $0 { return line } else { return nil } } }
    /// Each cue's label and when it was due.
    var cues: [(String, MonotonicInstant)] {
        actions.compactMap { if case .vibrate(let vibration) = $0 { return (vibration.label.text, vibration.due) } else { return nil } }
    }
    var lastState: DeviceState? {
        actions.last { if case .state = $0 { return true } else { return false } }.flatMap { if case .state(let s) = $0 { return s } else { return nil } }
    }
}

/// A library whose snapshot the test sets, as `settings set` and the store would change it.
final class SettableLibrary: DeviceLibrary {
    let current: Mutex<DeviceSnapshot>
    init(_ snapshot: DeviceSnapshot) { current = Mutex(snapshot) }
    func prepareSnapshot() -> DeviceSnapshot { current.withLock { $0 } }
    func reload() {}
    func set(_ snapshot: DeviceSnapshot) { current.withLock { $0 = snapshot } }
}
