import ChronoCore
import ChronoRuntime
import Synchronization

/// `run`'s session options on the command line (`--mode`, `--interval`, `--attempts`, …): what the first
/// idle tap starts. Once a session has started, the store's last configuration takes over, as it would
/// have without the options.
final class FirstSessionOverride: DeviceLibrary, SessionRecorder {
    private let base: DeviceLibrary
    private let pending: Mutex<SessionConfiguration?>

    init(base: DeviceLibrary, firstConfiguration: SessionConfiguration?) {
        self.base = base
        pending = Mutex(firstConfiguration)
    }

    func idleMenuInputs(nowUnixSeconds: Int64) -> (lastConfiguration: SessionConfiguration, presets: [TrainingInterval], patterns: IntervalPatternBook) {
        var inputs = base.idleMenuInputs(nowUnixSeconds: nowUnixSeconds)
        if var first = pending.withLock({ $0 }) {
            if let pattern = inputs.patterns.pattern(for: first.interval) { first.intervalPattern = pattern }
            inputs.lastConfiguration = first
        }
        return inputs
    }

    func healthStatus() -> String { base.healthStatus() }

    func sessionStarted(_ start: SessionStartRecord) {
        pending.withLock { $0 = nil }
    }

    func sessionFinished(_ finish: SessionFinishRecord) {}
}
