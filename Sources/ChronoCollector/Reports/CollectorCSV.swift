import ChronoCore
import ChronoStore
import ChronoSync

/// The collector's CSV: the device's export columns (`ChronoStore.csvColumns`, docs/STORE.md) with
/// `device_id`, `device_name` and `participant` in front, rows built by the device's own code — so
/// a researcher's scripts for one device's export read the collector's too. One difference: the
/// `health_log` column holds the device's decision (`record` or `skip`), since whether the record
/// reached the device's health log is the device's business. A session of a block without feedback is
/// flagged as on the device: `feedback_withheld` from its study tag, and, while its results are withheld
/// (`CollectorWithheld`, the core's one rule), `results_withheld` with its results left out.
public enum CollectorCSV {
    public static let columns = ["device_id", "device_name", "participant"] + ChronoStore.csvColumns
    static let healthColumn = ChronoStore.csvColumns.firstIndex(of: "health_log")!

    /// Writes the header and every session's rows to `sink`, in chunks of about 64 KiB.
    public static func write(_ sessions: [CollectorSession], withheld: Set<String> = [], to sink: (String) throws -> Void) rethrows {
        try CSVText.write(header: columns, sessions, rows: { rows($0, resultsWithheld: withheld.contains($0.session.id)) }, to: sink)
    }

    /// The rows of one session; none for a session that no longer validates (edited by hand).
    public static func rows(_ stored: CollectorSession, resultsWithheld: Bool = false) -> [[String]] {
        let wire = stored.session
        guard let outcome = try? wire.validatedOutcome() else { return [] }
        var session = StoredSession(
            sessionID: wire.id, outcome: outcome, isRunning: false, anchor: wire.anchor, board: wire.board,
            wallClockSynchronised: wire.wallClockSynchronised, bootID: "",
            boundariesFired: wire.boundaries.map { $0.firedMonotonicNanoseconds.map(MonotonicInstant.init(nanoseconds:)) },
            healthLedger: nil, note: wire.note)
        session.study = wire.study
        let device = [stored.deviceID, stored.deviceName, stored.participant ?? ""]
        return ChronoStore.csvRows(session, resultsWithheld: resultsWithheld).map { row in
            var row = row
            row[healthColumn] = wire.healthDecision
            return device + row
        }
    }
}
