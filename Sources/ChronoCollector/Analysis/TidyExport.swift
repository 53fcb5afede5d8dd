import ChronoCore
import ChronoSync

/// The tidy export (docs/STUDIES.md, "The tidy export"): one row per attempt (Challenge, Fear,
/// Reproduction) or Passive boundary, with who, which study session, the target, the produced
/// duration and its error from the raw monotonic marks, the wall-clock times those marks had, and the
/// device's timing flags. Its codebook (`TidyCodebook`) names each column's meaning and unit. Plain
/// RFC 4180 CSV through `CSVText`, a header row, numbers as plain decimals, booleans TRUE/FALSE and
/// missing values empty: R's `read.csv` and pandas' `read_csv` read it without options. Pure.
public enum TidyExport {
    /// Writes the header and every session's rows to `sink`, in chunks of about 64 KiB. `consents`:
    /// each device's newest consent decision, by device ID (`CollectorDevice.consent`).
    public static func write(_ sessions: [CollectorSession], consents: [String: StudyConsent.Record] = [:],
                             to sink: (String) throws -> Void) rethrows {
        try CSVText.write(header: TidyCodebook.columns.map(\.name), sessions, rows: { rows($0, consent: consents[$0.deviceID]) }, to: sink)
    }

    /// One session's rows, in `TidyCodebook.columns` order; none for a session that no longer validates,
    /// and none for an aborted or interrupted one: the tidy export holds the measurements an analysis
    /// uses, and dropout is counted from `export csv`'s status and reason and the study's status.
    public static func rows(_ stored: CollectorSession, consent: StudyConsent.Record? = nil) -> [[String]] {
        let wire = stored.session
        guard let outcome = try? wire.validatedOutcome(), outcome.status == .completed else { return [] }
        let tag = StudyObservations.study(wire)
        let anchor = wire.anchor
        let target = wire.targetIntervalMilliseconds * 1_000_000
        func utc(_ mono: Int64) -> String { WallTime(unixNanoseconds: anchor.unixNanoseconds(at: MonotonicInstant(nanoseconds: mono)), utcOffsetSeconds: 0).iso8601 }
        func unix(_ mono: Int64) -> String { String(anchor.unixNanoseconds(at: MonotonicInstant(nanoseconds: mono))) }
        func flag(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }
        let session: [String] = [
            StudyObservations.participant(stored), stored.deviceID, stored.deviceName, wire.id,
            utc(outcome.startedAt.nanoseconds), wire.mode,
            tag?.protocolName ?? "", tag.map { String($0.protocolVersion) } ?? "", tag.map { String($0.blockIndex) } ?? "",
            tag?.blockName ?? "", tag.map { String($0.planPosition) } ?? "", tag?.condition ?? "",
            flag(tag?.feedbackShown ?? true),
        ]
        let timing: [String] = [
            String(wire.utcOffsetSeconds), flag(wire.wallClockSynchronised), wire.timingLateNanoseconds.map(String.init) ?? "",
            flag(wire.timingLateNanoseconds != nil), wire.board,
            consent?.decision.rawValue ?? "", consent.map { "\($0.protocolName)@\($0.protocolVersion)" } ?? "",
            consent.map { WallTime(unixNanoseconds: $0.decidedUnixNanoseconds, utcOffsetSeconds: 0).iso8601 } ?? "",
        ]
        var rows: [[String]] = []
        if SessionMode(rawValue: wire.mode)?.usesAttempts == true {
            for attempt in wire.attempts {
                let produced = attempt.tapMonotonicNanoseconds - attempt.startMonotonicNanoseconds
                let error = produced - target
                let presented = presentedBoundaries(attempt)
                // Typed pieces: one long literal takes the release compiler (Swift 6.2, package-pi) too long to type-check.
                let measured: [String] = [
                    "attempt", String(attempt.index), String(target), number(Double(target) / 1e9),
                    String(produced), number(Double(produced) / 1e9), String(error), number(Double(error) / 1e9),
                    number(Double(error) / Double(target)),
                ]
                let presentedStart: String = presented.start.map(String.init) ?? ""
                let presentedEnd: String = presented.end.map(String.init) ?? ""
                let times: [String] = [
                    String(attempt.startMonotonicNanoseconds), String(attempt.tapMonotonicNanoseconds),
                    presentedStart, presentedEnd,
                    unix(attempt.startMonotonicNanoseconds), unix(attempt.tapMonotonicNanoseconds),
                    utc(attempt.startMonotonicNanoseconds), utc(attempt.tapMonotonicNanoseconds),
                ]
                rows.append(session + measured + times + timing)
            }
        } else {
            for boundary in wire.boundaries {
                let fired = boundary.firedMonotonicNanoseconds
                let lateness = fired.map { $0 - boundary.dueMonotonicNanoseconds }
                let latenessText: String = lateness.map(String.init) ?? ""
                let latenessSeconds: String = lateness.map { number(Double($0) / 1e9) } ?? ""
                let measured: [String] = [
                    "boundary", String(boundary.index), String(target), number(Double(target) / 1e9),
                    "", "", latenessText, latenessSeconds, "",
                ]
                let firedText: String = fired.map(String.init) ?? ""
                let firedUnix: String = fired.map(unix) ?? ""
                let firedUTC: String = fired.map(utc) ?? ""
                let times: [String] = [
                    String(boundary.dueMonotonicNanoseconds), firedText, "", "",
                    unix(boundary.dueMonotonicNanoseconds), firedUnix,
                    utc(boundary.dueMonotonicNanoseconds), firedUTC,
                ]
                rows.append(session + measured + times + timing)
            }
        }
        return rows
    }

    /// A Reproduction attempt's presented interval (its two motor boundaries); none for other modes.
    static func presentedBoundaries(_ attempt: SyncedSession.Attempt) -> (start: Int64?, end: Int64?) {
        (attempt.presentedStartMonotonicNanoseconds, attempt.presentedEndMonotonicNanoseconds)
    }

    static func number(_ value: Double) -> String { value.isFinite ? "\(value)" : "" }
}
