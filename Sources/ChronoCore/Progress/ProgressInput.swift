/// What `ProgressReport.of` is computed from: the presets in frecency order, the all-time session
/// counts, and sessions. A reader that holds every session (the collector, a test) builds it with
/// `init(allSessions:nowUnixSeconds:)`; the device's store, which must not read years of history for
/// one report, gives its kept totals and only the sessions a figure can use (`ProgressReport.of` says
/// which) — the same report either way.
public struct ProgressInput: Hashable, Sendable {
    /// Sessions of one interval, status and mode, all time.
    public struct Tally: Hashable, Sendable {
        public var interval: TrainingInterval
        public var status: String
        public var mode: SessionMode
        public var sessions: Int

        public init(interval: TrainingInterval, status: String, mode: SessionMode, sessions: Int) {
            self.interval = interval
            self.status = status
            self.mode = mode
            self.sessions = sessions
        }
    }

    /// Every used interval (and the built-in preset) in frecency order (`Frecency.rank`).
    public var presets: [RankedPreset]
    public var tallies: [Tally]
    /// Any order; one entry per session.
    public var sessions: [ProgressSession]

    public init(presets: [RankedPreset], tallies: [Tally], sessions: [ProgressSession]) {
        self.presets = presets
        self.tallies = tallies
        self.sessions = sessions
    }

    /// Everything from a complete list of sessions: each session (of any status) is one use of its
    /// interval at its start second, as the device counts a preset use when a session starts.
    public init(allSessions: [ProgressSession], nowUnixSeconds: Int64) {
        var counts: [Tally: Int] = [:]
        for session in allSessions {
            counts[Tally(interval: session.interval, status: session.status, mode: session.mode, sessions: 0), default: 0] += 1
        }
        let tallies = counts.map { key, count in
            Tally(interval: key.interval, status: key.status, mode: key.mode, sessions: count)
        }
        let uses = allSessions.map { PresetUse(interval: $0.interval, usedAtUnixSeconds: $0.startedUnixNanoseconds / 1_000_000_000) }
        let presets = Frecency.rank(uses: uses, nowUnixSeconds: nowUnixSeconds).filter { $0.interval.isProductInterval || $0.useCount > 0 }
        self.init(presets: presets, tallies: tallies, sessions: allSessions)
    }
}
