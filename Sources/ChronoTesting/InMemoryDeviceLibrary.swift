import ChronoCore
import ChronoRuntime
import Synchronization

/// A device library for tests, kept in memory: the starting configuration, the presets ranked by
/// `Frecency` from the sessions started in this process, and their H(I) patterns (assigned once and
/// kept, as `IntervalPatternBook` requires). The product uses the store's adapter instead.
///
/// It is also a `SessionRecorder` (a use is counted when a session starts).
public final class InMemoryDeviceLibrary: DeviceLibrary, SessionRecorder {
    private struct State {
        var lastConfiguration: SessionConfiguration
        var uses: [PresetUse] = []
        var patterns = IntervalPatternBook()
    }

    private let state: Mutex<State>
    private let health: String

    /// - Parameter healthStatus: what the state file shows as the health log's status.
    public init(startingConfiguration: SessionConfiguration, healthStatus: String) {
        state = Mutex(State(lastConfiguration: startingConfiguration))
        health = healthStatus
    }

    public func idleMenuInputs(nowUnixSeconds: Int64) -> (lastConfiguration: SessionConfiguration, presets: [TrainingInterval], patterns: IntervalPatternBook) {
        state.withLock { state in
            var presets = Frecency.rank(uses: state.uses, nowUnixSeconds: nowUnixSeconds).map(\.interval)
            if !presets.contains(.builtInPreset) { presets.append(.builtInPreset) }
            if !presets.contains(state.lastConfiguration.interval) { presets.insert(state.lastConfiguration.interval, at: 0) }
            state.patterns.assign(ranked: presets)
            return (state.lastConfiguration, presets, state.patterns)
        }
    }

    public func healthStatus() -> String { health }

    public func sessionStarted(_ start: SessionStartRecord) {
        state.withLock { state in
            state.lastConfiguration = start.configuration
            state.uses.append(PresetUse(interval: start.configuration.interval,
                                        usedAtUnixSeconds: start.anchor.unixNanoseconds / 1_000_000_000))
        }
    }

    public func sessionFinished(_ finish: SessionFinishRecord) {}
}
