import ChronoCore

/// A session read back from the store, complete: what exports and the health log are built from.
public struct StoredSession: Sendable {
    public var sessionID: String
    /// `running` rows are read back as interrupted outcomes; `isRunning` tells them apart.
    public var outcome: SessionOutcome
    public var isRunning: Bool
    public var anchor: WallClockAnchor
    public var board: String
    public var wallClockSynchronised: Bool
    /// For Fear: whether sound was audible when the session started (as its start recorded it).
    public var soundAudibleAtStart: Bool
    public var bootID: String
    /// Fired instants by boundary position (nil where not measured).
    public var boundariesFired: [MonotonicInstant?]
    public var healthLedger: HealthLedgerEntry?
    /// The person's note (`SessionNote`), nil when there is none.
    public var note: String?
    /// The study session it was (`StudyTag`), nil for a session outside any study.
    public var study: StudyTag?

    public var startedAt: WallTime { anchor.wallTime(at: outcome.startedAt) }

    public init(sessionID: String, outcome: SessionOutcome, isRunning: Bool, anchor: WallClockAnchor, board: String,
                wallClockSynchronised: Bool, bootID: String, boundariesFired: [MonotonicInstant?], healthLedger: HealthLedgerEntry?,
                note: String? = nil, soundAudibleAtStart: Bool = true) {
        self.sessionID = sessionID
        self.soundAudibleAtStart = soundAudibleAtStart
        self.outcome = outcome
        self.isRunning = isRunning
        self.anchor = anchor
        self.board = board
        self.wallClockSynchronised = wallClockSynchronised
        self.bootID = bootID
        self.boundariesFired = boundariesFired
        self.healthLedger = healthLedger
        self.note = note
    }
}

/// One session's line in the health-log ledger.
public struct HealthLedgerEntry: Hashable, Sendable {
    public enum State: String, Sendable {
        /// A record is due and not yet in the log.
        case owed
        /// The record is in the log.
        case written
        /// No record, by rule (aborted, interrupted, too short, unreliable).
        case skipped
    }

    public var state: State
    /// Why it is owed or skipped: `logging_off`, `logging_failing`, `write_failed`,
    /// `clock_unsynchronised`, `pending`, `not_eligible`.
    public var reasonCode: String?
    public var reason: String?
}

/// What happened to a finished session's health record.
public enum HealthDelivery: Hashable, Sendable {
    case written
    /// No record by rule (SPEC §4).
    case skipped(reason: String)
    /// Due but not written now (logging off, stopped after a failure, wall clock not synchronised);
    /// `code` is the ledger's `reason_code` (`HealthLedgerEntry.reasonCode`), for a caller that says why.
    case owed(code: String, reason: String)
    /// The write failed now; `firstFailure` is true the one time it should be reported.
    case failed(reason: String, firstFailure: Bool)
}

/// The result of saving a finished session.
public struct SessionSaveResult: Hashable, Sendable {
    /// False when the session was already stored as finished (a repeated save changes nothing).
    public var stored: Bool
    public var health: HealthDelivery
}
