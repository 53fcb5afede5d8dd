import ChronoCommandLine
import ChronoCore
import ChronoSimulation
import ChronoStore

/// Saves `simulate`'s sessions into a store the way the device does — a `running` row first, then the
/// finished session and its health record — so progress, exports and the health log can be tried
/// without a device, and so a kill mid-run exercises the same durability path.
///
/// Simulated sessions are placed an hour apart ending now (their virtual anchors are trusted, they
/// never wait for the kernel clock), and their ids derive from the seed: running `simulate` again with
/// the same seed adds nothing twice.
struct SimulationStoreWriter {
    let store: ChronoStore
    let firstSessionUnixSeconds: Int64

    init(store: ChronoStore, sessions: Int) {
        self.store = store
        firstSessionUnixSeconds = LocalTimeZone.nowUnixNanoseconds() / 1_000_000_000 - Int64(sessions) * 3600
    }

    func save(_ result: SimulationRun.SessionResult) throws {
        let offset = LocalTimeZone.utcOffsetSeconds(atUnixSeconds: result.anchor.unixNanoseconds / 1_000_000_000)
        var anchor = result.anchor
        anchor.utcOffsetSeconds = offset
        // A device starts every session with its interval's assigned H(I) (the pattern book); the
        // saved session carries it too, so `presets`, `progress` and a collector it syncs to agree.
        var configuration = result.scenario.configuration
        configuration.intervalPattern = try store.pattern(for: configuration.interval, nowUnixSeconds: anchor.unixNanoseconds / 1_000_000_000)
        var outcome = result.outcome
        outcome.configuration.intervalPattern = configuration.intervalPattern
        try store.recordSessionStarted(SessionStartRecord(
            sessionID: result.sessionID, configuration: configuration, anchor: anchor, board: "simulator",
            soundAudible: result.scenario.soundAudible, wallClockSynchronised: true))
        let saved = try store.recordSessionFinished(
            SessionFinishRecord(sessionID: result.sessionID, outcome: outcome, anchor: anchor, board: "simulator",
                                boundariesFired: outcome.boundaries.map(\.due), wallClockSynchronised: true),
            nowUnixNanoseconds: LocalTimeZone.nowUnixNanoseconds())
        if case .failed(let reason, true) = saved.health {
            printError("Health log: writing failed (\(reason)). Sessions are still saved; logging is stopped until `chronoception health enable`.")
        }
    }
}
