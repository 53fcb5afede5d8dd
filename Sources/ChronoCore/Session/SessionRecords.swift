/// What is known when a session starts: handed by the runtime (or `simulate`) to whatever keeps
/// sessions — the store writes its `running` row from it, so a crash leaves a trace. One type on both
/// sides of the seam, so the two can never drift apart.
public struct SessionStartRecord: Hashable, Sendable {
    public var sessionID: String
    public var configuration: SessionConfiguration
    /// The session's one wall/monotonic pair (SPEC §4); `anchor.monotonic` is the session start.
    public var anchor: WallClockAnchor
    /// The board's name, written as the health record's `device`.
    public var board: String
    /// For Fear: whether sound was audible when the session started.
    public var soundAudible: Bool
    /// Whether the wall clock was synchronised when the anchor was taken; nil: the keeper asks the
    /// kernel when it saves the record (the device's case; `simulate` passes true).
    public var wallClockSynchronised: Bool?
    /// The study session this is (`StudyTag`): set by the daemon when it runs a planned session of
    /// the assigned protocol; nil for a session outside any study. Kept with the session's row.
    public var study: StudyTag?

    public init(sessionID: String, configuration: SessionConfiguration, anchor: WallClockAnchor, board: String,
                soundAudible: Bool, wallClockSynchronised: Bool? = nil) {
        self.sessionID = sessionID
        self.configuration = configuration
        self.anchor = anchor
        self.board = board
        self.soundAudible = soundAudible
        self.wallClockSynchronised = wallClockSynchronised
    }
}

/// What is known when a session finishes (completed, aborted or interrupted), with the rule on its
/// health record (`HealthRecordBuilder.decide`) applied to it: the store asks `healthDecision` once,
/// where it saves the session, writes the ledger line from the answer and hands the record to the
/// health log as it is.
public struct SessionFinishRecord: Hashable, Sendable {
    public var sessionID: String
    public var outcome: SessionOutcome
    public var anchor: WallClockAnchor
    public var board: String
    /// Passive boundaries as the motor driver actually fired them (monotonic), by position beside the
    /// due instants in `outcome.boundaries`; empty when not measured.
    public var boundariesFired: [MonotonicInstant]
    /// Used only when no start was recorded (a simulation saves finished sessions directly).
    public var wallClockSynchronised: Bool?
    /// Used only when no start was recorded.
    public var soundAudibleAtStart: Bool?
    /// The session's study tag, as its start record had it; the store keeps it from here only when no
    /// start was recorded (a simulated study's sessions, a start the store could not write).
    public var study: StudyTag?
    /// Whether this session's results are withheld as it finishes (a study block without feedback that
    /// has not ended, or never reveals): decided once by the daemon with `ResultsWithholding`, the one
    /// rule every surface asks, and kept as decided by the store. Its health record and its JSON line
    /// then carry no result.
    public var resultsWithheld = false

    public init(sessionID: String, outcome: SessionOutcome, anchor: WallClockAnchor, board: String,
                boundariesFired: [MonotonicInstant] = [], wallClockSynchronised: Bool? = nil,
                soundAudibleAtStart: Bool? = nil) {
        self.sessionID = sessionID
        self.outcome = outcome
        self.anchor = anchor
        self.board = board
        self.boundariesFired = boundariesFired
        self.wallClockSynchronised = wallClockSynchronised
        self.soundAudibleAtStart = soundAudibleAtStart
    }

    /// This finish with what its start established (sound audible, wall clock synchronised) filled in
    /// where the finish leaves it unknown, as the session's row holds it. `start`: nil when unseen.
    public func withStartFacts(of start: SessionStartRecord?) -> SessionFinishRecord {
        var whole = self
        whole.soundAudibleAtStart = soundAudibleAtStart ?? start?.soundAudible
        whole.wallClockSynchronised = wallClockSynchronised ?? start?.wallClockSynchronised
        return whole
    }

    /// `soundAudibleAtStart`, or what a keeper assumes when the finish does not say: audible, unless
    /// this is a Fear session whose sound did not play.
    public var assumedSoundAudibleAtStart: Bool {
        soundAudibleAtStart ?? (outcome.mode != .fear || outcome.fearSoundEffective)
    }

    /// Whether this session gets a health record, and the record (SPEC §4). Computed on each call:
    /// ask once and hand the answer on.
    public var healthDecision: HealthRecordBuilder.Decision {
        HealthRecordBuilder.decide(for: outcome, sessionID: sessionID, device: board, anchor: anchor, resultsWithheld: resultsWithheld)
    }
}
