import ChronoCore
import ChronoSync

/// The collector's sessions as the study analysis takes them: one `TimingObservation` per attempt of
/// every attempt mode (Challenge, Fear, Reproduction), produced = `tap − start` in the device's
/// monotonic nanoseconds, target = the session's interval, grouped by the session's study tag (none
/// outside a study). Completed sessions only, as the tidy export: Passive sessions have no produced
/// durations, aborted and interrupted ones count as dropout, not as measurements, and a stored session
/// that no longer validates (edited by hand) is left out, as the CSV leaves it out. Pure.
public enum StudyObservations {
    public static func of(_ sessions: [CollectorSession]) -> [TimingObservation] {
        var observations: [TimingObservation] = []
        for stored in sessions {
            let wire = stored.session
            guard let mode = SessionMode(rawValue: wire.mode), mode.usesAttempts,
                  let outcome = try? wire.validatedOutcome(), outcome.status == .completed else { continue }
            let tag = study(wire)
            let group = AnalysisGroup(protocolName: tag?.protocolName, protocolVersion: tag?.protocolVersion,
                                      condition: tag?.condition, mode: wire.mode)
            let target = wire.targetIntervalMilliseconds * 1_000_000
            let started = wire.anchor.unixNanoseconds(at: outcome.startedAt)
            for attempt in wire.attempts {
                observations.append(TimingObservation(
                    participant: participant(stored), device: stored.deviceName, group: group, sessionID: wire.id,
                    sessionStartUnixNanoseconds: started, attemptIndex: attempt.index, targetNanoseconds: target,
                    producedNanoseconds: attempt.tapMonotonicNanoseconds - attempt.startMonotonicNanoseconds,
                    feedbackShown: tag?.feedbackShown ?? true))
            }
        }
        return observations
    }

    /// The participant a session counts for: the device's participant, else the device's own name.
    public static func participant(_ stored: CollectorSession) -> String {
        stored.participant ?? stored.deviceName
    }

    /// The session's study tag, when it ran as part of a protocol.
    static func study(_ wire: SyncedSession) -> StudyTag? {
        wire.study
    }
}
