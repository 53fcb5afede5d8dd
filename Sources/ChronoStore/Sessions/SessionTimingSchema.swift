import GRDB

/// The session's timing flag (`SessionOutcome.timingLateness`): the largest lateness, in nanoseconds,
/// of its time-marking cues past their deadlines when that was beyond `CueTiming.tolerance` (a
/// stalled or stopped process); NULL when every cue began on time, and for every session stored
/// before the flag existed (their boundaries' `fired_mono_ns` still say when each one fired).
enum SessionTimingSchema {
    static let migrationIdentifier = "session-timing-v1"

    static func migrate(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE session ADD COLUMN timing_late_ns INTEGER CHECK (timing_late_ns IS NULL OR timing_late_ns > 0)")
    }
}
