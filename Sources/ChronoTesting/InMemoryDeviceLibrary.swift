import ChronoCore
import ChronoRuntime
import Synchronization

/// A device library for tests, kept in memory: the next configuration (the starting one, then the last
/// session's), the presets ranked by `Frecency` from the sessions started in this process, their H(I)
/// patterns (assigned once and kept, as `IntervalPatternBook` requires), and settings a test may change
/// while the daemon runs. The product uses the store's adapter instead.
///
/// It is also a `SessionRecorder` (a use is counted when a session starts).
public final class InMemoryDeviceLibrary: DeviceLibrary, SessionRecorder {
    private struct State {
        var lastConfiguration: SessionConfiguration
        var lastSessionID: String?
        var uses: [PresetUse] = []
        var patterns = IntervalPatternBook()
        var defaults: SessionDefaults
        var healthStatus: String
        var fearAllowed: Bool
        var snapshots = 0
        var reloads = 0
    }

    private let state: Mutex<State>

    /// - Parameters:
    ///   - healthStatus: what the state file shows as the health log's status.
    ///   - defaults: the settings' part of every session (default: the starting configuration's).
    public init(startingConfiguration: SessionConfiguration, healthStatus: String, fearAllowed: Bool = false,
                defaults: SessionDefaults? = nil) {
        state = Mutex(State(
            lastConfiguration: startingConfiguration,
            defaults: defaults ?? SessionDefaults(timing: startingConfiguration.timing, gestures: startingConfiguration.gestures,
                                                  fearThreshold: startingConfiguration.fearThreshold,
                                                  attempts: startingConfiguration.mode.usesAttempts ? startingConfiguration.plannedCount : 1,
                                                  repetitions: startingConfiguration.mode.usesAttempts ? 6 : startingConfiguration.plannedCount),
            healthStatus: healthStatus, fearAllowed: fearAllowed))
    }

    public func prepareSnapshot() -> DeviceSnapshot {
        state.withLock { state in
            state.snapshots += 1
            let now = (state.uses.map(\.usedAtUnixSeconds).max() ?? 0) + 1
            var presets = Frecency.rank(uses: state.uses, nowUnixSeconds: now).map(\.interval)
            if !presets.contains(.builtInPreset) { presets.append(.builtInPreset) }
            if !presets.contains(state.lastConfiguration.interval) { presets.insert(state.lastConfiguration.interval, at: 0) }
            state.patterns.assign(ranked: presets)
            var next = state.lastConfiguration
            next.timing = state.defaults.timing
            next.gestures = state.defaults.gestures
            next.fearThreshold = state.defaults.fearThreshold
            if let pattern = state.patterns.pattern(for: next.interval) { next.intervalPattern = pattern }
            return DeviceSnapshot(nextConfiguration: next, lastSessionID: state.lastSessionID, presets: presets,
                                  patterns: state.patterns, defaults: state.defaults, healthStatus: state.healthStatus,
                                  fearAllowed: state.fearAllowed)
        }
    }

    public func reload() { state.withLock { $0.reloads += 1 } }

    /// Changes the settings' part of sessions, as `settings set` would (the daemon sees it at its next refresh).
    public func change(defaults: SessionDefaults? = nil, healthStatus: String? = nil, fearAllowed: Bool? = nil) {
        state.withLock { state in
            if let defaults { state.defaults = defaults }
            if let healthStatus { state.healthStatus = healthStatus }
            if let fearAllowed { state.fearAllowed = fearAllowed }
        }
    }

    /// How many snapshots were prepared, and how many reloads (SIGHUP) were asked for.
    public var counts: (snapshots: Int, reloads: Int) { state.withLock { ($0.snapshots, $0.reloads) } }

    public func sessionStarted(_ start: SessionStartRecord) {
        state.withLock { state in
            state.lastConfiguration = start.configuration
            state.lastSessionID = start.sessionID
            state.uses.append(PresetUse(interval: start.configuration.interval,
                                        usedAtUnixSeconds: start.anchor.unixNanoseconds / 1_000_000_000))
        }
    }

    public func sessionFinished(_ finish: SessionFinishRecord) {}
}
