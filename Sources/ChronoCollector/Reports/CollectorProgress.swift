import ChronoCore
import ChronoSync

/// Progress over a device's or a participant's synced sessions: the sessions as the core's
/// `ProgressSession`s, handed to the one computation the device uses too (`ProgressReport.of`), so the
/// same sessions give the same figures on both. Each session is one preset use at its start, as on the
/// device. The recent lines' health word is the device's decision (`record`, `skip`). Pure: the
/// caller reads the sessions, decides which are withheld (`CollectorWithheld`) and gives the time.
public enum CollectorProgress {
    public static func report(_ sessions: [CollectorSession], nowUnixNanoseconds now: Int64, utcOffsetSeconds: Int,
                              only: TrainingInterval? = nil, withheld: Set<String> = []) -> ProgressReport {
        let input = ProgressInput(allSessions: progressSessions(sessions, withheld: withheld), nowUnixSeconds: now / 1_000_000_000)
        return ProgressReport.of(input, nowUnixNanoseconds: now, utcOffsetSeconds: utcOffsetSeconds, only: only)
    }

    /// The sessions as progress reads them. Stored sessions were validated at ingest; one that no longer
    /// validates (edited by hand) is left out.
    public static func progressSessions(_ sessions: [CollectorSession], withheld: Set<String> = []) -> [ProgressSession] {
        sessions.compactMap { stored in
            let wire = stored.session
            guard let outcome = try? wire.validatedOutcome() else { return nil }
            return ProgressSession(id: wire.id, outcome: outcome, anchor: wire.anchor, healthLog: wire.healthDecision, note: wire.note,
                                   resultsWithheld: withheld.contains(wire.id))
        }
    }
}
