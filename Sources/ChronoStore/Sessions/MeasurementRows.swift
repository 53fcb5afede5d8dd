import ChronoCore
import GRDB

/// One `attempt` row: a session's attempt by its index, with its raw marks and (Reproduction) the
/// presented interval's onsets. A GRDB record, so the columns are named once, here, for the finish's
/// write and for every read of a session.
struct AttemptRow: Encodable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "attempt"

    var sessionID: String
    var index: Int
    var startMonotonicNanoseconds: Int64
    var tapMonotonicNanoseconds: Int64
    var presentedStartMonotonicNanoseconds: Int64?
    var presentedEndMonotonicNanoseconds: Int64?

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case sessionID = "session_id"
        case index = "attempt_index"
        case startMonotonicNanoseconds = "start_mono_ns"
        case tapMonotonicNanoseconds = "tap_mono_ns"
        case presentedStartMonotonicNanoseconds = "presented_start_mono_ns"
        case presentedEndMonotonicNanoseconds = "presented_end_mono_ns"
    }

    init(sessionID: String, _ attempt: AttemptMeasurement) {
        self.sessionID = sessionID
        index = attempt.index
        startMonotonicNanoseconds = attempt.startMark.nanoseconds
        tapMonotonicNanoseconds = attempt.tapMark.nanoseconds
        presentedStartMonotonicNanoseconds = attempt.presentedStart?.nanoseconds
        presentedEndMonotonicNanoseconds = attempt.presentedEnd?.nanoseconds
    }

    /// By column name; read for every attempt of every session a read loads, so not through `Decodable`.
    init(row: Row) {
        sessionID = row[CodingKeys.sessionID]
        index = row[CodingKeys.index]
        startMonotonicNanoseconds = row[CodingKeys.startMonotonicNanoseconds]
        tapMonotonicNanoseconds = row[CodingKeys.tapMonotonicNanoseconds]
        presentedStartMonotonicNanoseconds = row[CodingKeys.presentedStartMonotonicNanoseconds]
        presentedEndMonotonicNanoseconds = row[CodingKeys.presentedEndMonotonicNanoseconds]
    }

    /// Optionals are written as NULL, never left out: a replaced row keeps no old onset.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sessionID, forKey: .sessionID)
        try container.encode(index, forKey: .index)
        try container.encode(startMonotonicNanoseconds, forKey: .startMonotonicNanoseconds)
        try container.encode(tapMonotonicNanoseconds, forKey: .tapMonotonicNanoseconds)
        try container.encode(presentedStartMonotonicNanoseconds, forKey: .presentedStartMonotonicNanoseconds)
        try container.encode(presentedEndMonotonicNanoseconds, forKey: .presentedEndMonotonicNanoseconds)
    }

    /// Every monotonic mark the row holds (an absent onset as 0), for the read's range check.
    var marks: [Int64] {
        [startMonotonicNanoseconds, tapMonotonicNanoseconds, presentedStartMonotonicNanoseconds ?? 0, presentedEndMonotonicNanoseconds ?? 0]
    }

    /// The attempt of a session whose target is `target`.
    func measurement(target: TrainingInterval) -> AttemptMeasurement {
        AttemptMeasurement(index: index, target: target,
                           startMark: MonotonicInstant(nanoseconds: startMonotonicNanoseconds),
                           tapMark: MonotonicInstant(nanoseconds: tapMonotonicNanoseconds),
                           presentedStart: presentedStartMonotonicNanoseconds.map(MonotonicInstant.init(nanoseconds:)),
                           presentedEnd: presentedEndMonotonicNanoseconds.map(MonotonicInstant.init(nanoseconds:)))
    }
}

/// One `passive_boundary` row: a Passive session's boundary by its index, when it was due and when
/// its cue fired (NULL: not measured). A GRDB record, as `AttemptRow` is.
struct PassiveBoundaryRow: Encodable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "passive_boundary"

    var sessionID: String
    var index: Int
    var dueMonotonicNanoseconds: Int64
    var firedMonotonicNanoseconds: Int64?

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case sessionID = "session_id"
        case index = "boundary_index"
        case dueMonotonicNanoseconds = "due_mono_ns"
        case firedMonotonicNanoseconds = "fired_mono_ns"
    }

    init(sessionID: String, _ boundary: PassiveBoundary, fired: MonotonicInstant?) {
        self.sessionID = sessionID
        index = boundary.index
        dueMonotonicNanoseconds = boundary.due.nanoseconds
        firedMonotonicNanoseconds = fired?.nanoseconds
    }

    init(row: Row) {
        sessionID = row[CodingKeys.sessionID]
        index = row[CodingKeys.index]
        dueMonotonicNanoseconds = row[CodingKeys.dueMonotonicNanoseconds]
        firedMonotonicNanoseconds = row[CodingKeys.firedMonotonicNanoseconds]
    }

    /// NULL for an unmeasured firing, never left out.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sessionID, forKey: .sessionID)
        try container.encode(index, forKey: .index)
        try container.encode(dueMonotonicNanoseconds, forKey: .dueMonotonicNanoseconds)
        try container.encode(firedMonotonicNanoseconds, forKey: .firedMonotonicNanoseconds)
    }

    /// Its monotonic marks (an unmeasured firing as 0), for the read's range check.
    var marks: [Int64] { [dueMonotonicNanoseconds, firedMonotonicNanoseconds ?? 0] }

    var boundary: PassiveBoundary { PassiveBoundary(index: index, due: MonotonicInstant(nanoseconds: dueMonotonicNanoseconds)) }
    var fired: MonotonicInstant? { firedMonotonicNanoseconds.map(MonotonicInstant.init(nanoseconds:)) }
}
