import ChronoCore
import ChronoRuntime
import ChronoStore
import Synchronization

/// `--json-lines`: beside the store, each completed session also becomes one JSON line on the given
/// output — the session's identity and outcome as a person reads them, the health record
/// `HealthRecordBuilder` builds for it (or why there is none, for example a test-only interval), and
/// last the session record itself (`record`, the sync wire form; null while results are withheld, as in
/// the API). Aborted and interrupted sessions print nothing: they are never logged (SPEC §2).
final class JSONLinesRecorder: SessionRecorder {
    private let output: LineOutput
    /// Each running session's start, as the fan-out settled it (`RecorderFanOut`: the wall clock's
    /// synchronisation asked once for every recorder).
    private let started = Mutex<[String: SessionStartRecord]>([:])

    init(output: LineOutput) {
        self.output = output
    }

    func sessionStarted(_ start: SessionStartRecord) {
        started.withLock { $0[start.sessionID] = start }
    }

    func sessionFinished(_ finish: SessionFinishRecord) {
        let start = started.withLock { $0.removeValue(forKey: finish.sessionID) }
        guard finish.outcome.status == .completed else { return }
        // The record holds what the session's start established, as the store's row does.
        output.writeLine(Self.line(for: finish.withStartFacts(of: start)).compactText)
    }

    /// The JSON of one completed session.
    static func line(for finish: SessionFinishRecord) -> JSONValue {
        let outcome = finish.outcome
        let decision = finish.healthDecision
        var members: [(String, JSONValue)] = [
            ("session_id", .string(finish.sessionID)),
            ("status", .string(outcome.status.rawValue)),
            ("mode", .string(outcome.mode.rawValue)),
            ("interval", .string(outcome.configuration.interval.description)),
            ("board", .string(finish.board)),
            ("started", .string(finish.anchor.wallTime(at: outcome.startedAt).iso8601)),
            ("ended", .string(finish.anchor.wallTime(at: outcome.endedAt).iso8601)),
        ]
        if outcome.mode.usesAttempts {
            members.append(("attempts", .array(outcome.attempts.map { attempt in
                attemptJSON(attempt, withheld: finish.resultsWithheld)
            })))
        } else {
            members.append(("boundaries", .array(outcome.boundaries.enumerated().map { position, boundary in
                var entry: [(String, JSONValue)] = [("index", .int(boundary.index)), ("due", .string(finish.anchor.wallTime(at: boundary.due).iso8601))]
                if position < finish.boundariesFired.count {
                    entry.append(("fired_late_microseconds", .int((finish.boundariesFired[position] - boundary.due).nanoseconds / 1000)))
                }
                return .object(entry)
            })))
        }
        if let late = outcome.timingLateness {
            members.append(("timing_late_ms", .double(CueTiming.milliseconds(late))))
        }
        members += decision.jsonMembers
        // A study session whose results are withheld as it ends (`SessionFinishRecord.resultsWithheld`):
        // flagged, and its attempts' results null, as the API shows it.
        if finish.resultsWithheld { members.append(("results_withheld", .bool(true))) }
        // Its raw taps would give withheld results away.
        members.append(("record", finish.resultsWithheld ? .null : finish.record.json))
        return .object(members)
    }

    /// One attempt: its results (null while withheld) and, for Reproduction, the presented marks'
    /// onsets (monotonic nanoseconds, as the store and the wire keep them), after the existing members.
    static func attemptJSON(_ attempt: AttemptMeasurement, withheld: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [("index", .int(attempt.index))]
        members.append(("elapsed_seconds", withheld ? .null : .double(attempt.elapsedSeconds)))
        members.append(("signed_error_seconds", withheld ? .null : .double(attempt.signedErrorSeconds)))
        members.append(("zone", withheld ? .null : .string(attempt.zone.rawValue)))
        members.append(("feedback", withheld ? .null : .string(attempt.feedbackText)))
        if let start = attempt.presentedStart { members.append(("presented_start_mono_ns", .int(start.nanoseconds))) }
        if let end = attempt.presentedEnd { members.append(("presented_end_mono_ns", .int(end.nanoseconds))) }
        return .object(members)
    }
}
