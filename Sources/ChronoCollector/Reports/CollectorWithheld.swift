import ChronoCore
import ChronoSync

/// Which synced sessions have their results withheld now, by the core's one rule
/// (`ResultsWithholding`), from what the collector knows: a session's study tag, its device's current
/// assignment and the completed study sessions that device sent. The collector's CSV, progress and page
/// leave their results out and flag them, as the device's own surfaces do (SPEC §11).
public enum CollectorWithheld {
    /// `sessions`' withheld ids at `now`; `assignment` gives a device's current assignment (nil: none).
    public static func ids(_ sessions: [CollectorSession], nowUnixNanoseconds now: Int64,
                           assignment: (String) async throws -> SyncedStudyAssignment?) async throws -> Set<String> {
        let tagged = sessions.filter { $0.session.study.map { !$0.feedbackShown } ?? false }
        guard !tagged.isEmpty else { return [] }
        var standings: [String: StudyStanding?] = [:]
        for deviceID in Set(tagged.map(\.deviceID)) {
            standings[deviceID] = try await assignment(deviceID).flatMap { try? $0.validated() }.map { plan in
                StudyStanding(assignment: plan, completions: completions(sessions.filter { $0.deviceID == deviceID }, of: plan))
            }
        }
        return Set(tagged.filter { stored in
            ResultsWithholding.withheld(tag: stored.session.study, standing: standings[stored.deviceID] ?? nil, atUnixNanoseconds: now)
        }.map(\.session.id))
    }

    /// The completed sessions of `plan`'s protocol and participant, as the device's store lists them.
    static func completions(_ sessions: [CollectorSession], of plan: StudyAssignment) -> [StudySchedule.Completion] {
        sessions.compactMap { stored in
            let wire = stored.session
            guard let tag = wire.study, wire.status == SessionStatus.completed.rawValue, tag.protocolName == plan.plan.protocolName,
                  tag.protocolVersion == plan.plan.protocolVersion, tag.participant == plan.plan.participant else { return nil }
            return StudySchedule.Completion(position: tag.planPosition,
                                            endedUnixNanoseconds: wire.anchor.unixNanoseconds(at: MonotonicInstant(nanoseconds: wire.endedMonotonicNanoseconds)))
        }
    }
}
