import ChronoSync

/// The tidy export's columns in order, each with its type, unit and meaning: the codebook written
/// beside the export (`chronoception-collector export tidy`, `GET /api/v1/export-tidy-codebook.csv`)
/// and the table in docs/STUDIES.md. One list, so the export and its codebook cannot drift apart.
public enum TidyCodebook {
    /// One column of the tidy export.
    public struct Column: Hashable, Sendable {
        public var name: String
        /// `text`, `integer`, `number`, `boolean` (TRUE/FALSE) or `timestamp` (ISO 8601, UTC).
        public var type: String
        public var unit: String
        public var meaning: String
    }

    public static let columns: [Column] = [
        Column(name: "participant", type: "text", unit: "", meaning: "The participant the device was enrolled for (the device's name when it has none)."),
        Column(name: "device_id", type: "text", unit: "", meaning: "The device's UUID (the same on every collector it joins)."),
        Column(name: "device_name", type: "text", unit: "", meaning: "The name the device was enrolled under."),
        Column(name: "session_id", type: "text", unit: "", meaning: "The session's UUID; the rows of one session share it."),
        Column(name: "session_started_utc", type: "timestamp", unit: "UTC", meaning: "When the session started, by the device's wall clock (see wall_clock_synchronised)."),
        Column(name: "mode", type: "text", unit: "", meaning: "challenge, fear, reproduction (attempt rows) or passive (boundary rows)."),
        Column(name: "protocol", type: "text", unit: "", meaning: "The study protocol's name; empty for a session outside any study."),
        Column(name: "protocol_version", type: "integer", unit: "", meaning: "The protocol's version; a (protocol, version) pair never changes meaning. Empty outside a study."),
        Column(name: "block_index", type: "integer", unit: "", meaning: "The block's index in the protocol, from 0. Empty outside a study."),
        Column(name: "block", type: "text", unit: "", meaning: "The block's name. Empty outside a study."),
        Column(name: "plan_position", type: "integer", unit: "", meaning: "The session's index in the participant's plan, from 0. Empty outside a study."),
        Column(name: "condition", type: "text", unit: "", meaning: "The block's condition label. Empty outside a study."),
        Column(name: "feedback_shown", type: "boolean", unit: "", meaning: "TRUE when the person saw error, zone and score after each press; FALSE in a feedback-off block. Sessions outside a study always showed them."),
        Column(name: "row_kind", type: "text", unit: "", meaning: "attempt (one timed attempt) or boundary (one Passive interval boundary)."),
        Column(name: "index", type: "integer", unit: "", meaning: "The attempt's or boundary's index in its session, from 0."),
        Column(name: "target_ns", type: "integer", unit: "ns", meaning: "The session's target interval."),
        Column(name: "target_s", type: "number", unit: "s", meaning: "target_ns in seconds."),
        Column(name: "produced_ns", type: "integer", unit: "ns", meaning: "Attempt rows: the produced (or, in reproduction, reproduced) duration, end_mono_ns − start_mono_ns, from the kernel-stamped presses. Empty on boundary rows."),
        Column(name: "produced_s", type: "number", unit: "s", meaning: "produced_ns in seconds."),
        Column(name: "error_ns", type: "integer", unit: "ns", meaning: "Attempt rows: produced_ns − target_ns (negative: too early). Boundary rows: how late the motor fired after the boundary was due; empty when not measured."),
        Column(name: "error_s", type: "number", unit: "s", meaning: "error_ns in seconds."),
        Column(name: "relative_error", type: "number", unit: "fraction", meaning: "Attempt rows: error_ns ÷ target_ns (0.05 = 5 % too long). Empty on boundary rows."),
        Column(name: "start_mono_ns", type: "integer", unit: "ns", meaning: "Attempt rows: the press that started the attempt (reproduction: the press that starts the reproduction). Boundary rows: when the boundary was due. CLOCK_MONOTONIC of the device's boot; compare only within one session."),
        Column(name: "end_mono_ns", type: "integer", unit: "ns", meaning: "Attempt rows: the press that ended it. Boundary rows: when the motor fired (empty when not measured). CLOCK_MONOTONIC, as start_mono_ns."),
        Column(name: "presented_start_mono_ns", type: "integer", unit: "ns", meaning: "Reproduction only: the motor boundary that began the presented interval. Empty otherwise."),
        Column(name: "presented_end_mono_ns", type: "integer", unit: "ns", meaning: "Reproduction only: the motor boundary that ended the presented interval. Empty otherwise."),
        Column(name: "start_unix_ns", type: "integer", unit: "ns since 1970-01-01 UTC", meaning: "start_mono_ns on the wall clock (the session's one wall/monotonic pairing). Above 2^53: R reads it as a double (to about 256 ns); use the _utc column there."),
        Column(name: "end_unix_ns", type: "integer", unit: "ns since 1970-01-01 UTC", meaning: "end_mono_ns on the wall clock, as start_unix_ns."),
        Column(name: "start_utc", type: "timestamp", unit: "UTC", meaning: "start_unix_ns as ISO 8601 with milliseconds."),
        Column(name: "end_utc", type: "timestamp", unit: "UTC", meaning: "end_unix_ns as ISO 8601 with milliseconds."),
        Column(name: "utc_offset_seconds", type: "integer", unit: "s", meaning: "The device's offset from UTC when the session started (local time = UTC + this)."),
        Column(name: "wall_clock_synchronised", type: "boolean", unit: "", meaning: "Whether the device's wall clock was synchronised (NTP) when the session started; FALSE means the _utc and _unix_ns columns may be off, the _mono_ns ones are not."),
        Column(name: "timing_late_ns", type: "integer", unit: "ns", meaning: "The device's timing flag: how late its latest time mark (cue, boundary) began, when any began later than the cue tolerance. Empty when every mark was on time."),
        Column(name: "timing_flagged", type: "boolean", unit: "", meaning: "TRUE when timing_late_ns is set: the session's presented timing was late, consider leaving it out."),
        Column(name: "board", type: "text", unit: "", meaning: "The device's board (its button and motor wiring)."),
        Column(name: "consent", type: "text", unit: "", meaning: "The device's newest consent decision on its study when exported: accepted, declined or withdrawn (declined and withdrawn stop the study on that device). Empty when the device has synced none."),
        Column(name: "consent_protocol", type: "text", unit: "", meaning: "The protocol and version that decision answered, as name@version. Empty without a decision."),
        Column(name: "consent_decided_utc", type: "timestamp", unit: "UTC", meaning: "When the decision was taken, by the device's wall clock. Empty without a decision."),
    ]

    /// The codebook as CSV: `column, type, unit, meaning`.
    public static var csv: String {
        CSVText.record(["column", "type", "unit", "meaning"]) + columns.map { CSVText.record([$0.name, $0.type, $0.unit, $0.meaning]) }.joined()
    }
}
