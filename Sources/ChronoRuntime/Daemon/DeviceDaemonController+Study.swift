import ChronoCore

/// The assigned study on the loop (docs/STUDIES.md, "On the device"): what an idle tap starts while a
/// planned session is due, the tag its records carry, the study line in every state, the results a
/// withheld block hides, and the deadline at which the line or the due session changes by itself. All
/// decided by the core's `StudyStanding` from the snapshot (prepared off the loop) and the wall clock.
extension DeviceDaemonController {
    /// A planned session ready to start: its configuration (the current settings applied) and its tag.
    struct DueStudySession {
        var configuration: SessionConfiguration
        var tag: StudyTag
    }

    /// The wall clock now, paired with the loop's instant `now` (or read now).
    func wallNow(_ now: MonotonicInstant? = nil) -> (unixNanoseconds: Int64, utcOffsetSeconds: Int) {
        let anchor = wallClock()
        return (now.map { anchor.unixNanoseconds(at: $0) } ?? anchor.unixNanoseconds, anchor.utcOffsetSeconds)
    }

    /// The snapshot's standing, with the study session this daemon has just completed counted even
    /// while the store's snapshot does not know it yet.
    var studyStanding: StudyStanding? {
        guard var standing = snapshot.study else { return nil }
        if let completed = studyCompleted, completed.tag.protocolName == standing.plan.protocolName,
           completed.tag.protocolVersion == standing.plan.protocolVersion, completed.tag.participant == standing.plan.participant {
            standing = standing.completing(completed.completion)
        }
        return standing
    }

    /// The planned session an idle tap starts now, if one is due.
    func dueStudySession(at now: MonotonicInstant? = nil) -> DueStudySession? {
        guard let standing = studyStanding, let planned = standing.dueSession(at: wallNow(now).unixNanoseconds) else { return nil }
        guard let configuration = try? snapshot.configuration(planned: planned) else { return nil }
        return DueStudySession(configuration: configuration, tag: standing.plan.tag(for: planned))
    }

    /// The protocol's name when a tap at `now` meets the study's due session still waiting for consent
    /// (`StudyStanding.consentNeeded`); nil otherwise.
    func studyAwaitingConsent(at now: MonotonicInstant? = nil) -> String? {
        guard let standing = studyStanding, standing.consentNeeded(at: wallNow(now).unixNanoseconds) else { return nil }
        return standing.plan.protocolName
    }

    /// The idle tap's answer while the study's session waits for consent: the `consentNeeded` cue, a
    /// console line naming what to do, and the idle state again (which says consent is needed).
    func askForConsent(_ protocolName: String, at now: MonotonicInstant) -> [LoopAction] {
        let cue = HapticCue.consentNeeded
        return [.vibrate(PlannedVibration(pattern: cue.pattern, label: .cue(cue), due: now)),
                .console("The study \(protocolName) asks for your consent before its sessions: open the device's page to read it and accept or decline. Hold for your own presets."),
                .state(idleState(offering: nil))]
    }

    /// The study line of every published state (nil: no study assigned).
    func studyLine(at now: MonotonicInstant? = nil) -> DeviceState.Study? {
        guard let standing = studyStanding else { return nil }
        let wall = wallNow(now)
        return standing.line(at: wall.unixNanoseconds, utcOffsetSeconds: wall.utcOffsetSeconds)
    }

    /// When the study line or the due session next changes by itself, as a loop instant (a session
    /// becoming due, a study day ending, local midnight); nil without a study or once it is finished.
    func studyDeadline(after now: MonotonicInstant) -> MonotonicInstant? {
        guard let standing = studyStanding else { return nil }
        let anchor = wallClock()
        let wall = anchor.unixNanoseconds(at: now)
        guard let change = standing.nextChange(after: wall, utcOffsetSeconds: anchor.utcOffsetSeconds) else { return nil }
        return now + TimeSpan(nanoseconds: change - wall)
    }

    /// `last` as the state may show it: a study session's score is withheld while its block withholds
    /// feedback and has not ended (or for good, as the protocol says).
    func shown(_ last: DeviceState.LastSession?, tag: StudyTag?, at now: MonotonicInstant? = nil) -> DeviceState.LastSession? {
        guard let last else { return nil }
        return ResultsWithholding.withheld(tag: tag, standing: studyStanding, atUnixNanoseconds: wallNow(now).unixNanoseconds) ? last.withheld : last
    }

    /// The study tag of a session the state names: this daemon's study session, or the snapshot's
    /// newest completed one (nil: outside any study, or not known here).
    func studyTag(ofSession sessionID: String?) -> StudyTag? {
        guard let sessionID else { return nil }
        if let studyRun, studyRun.sessionID == sessionID { return studyRun.tag }
        return sessionID == snapshot.lastCompletedID ? snapshot.lastCompletedStudy : nil
    }

    /// A record of this daemon's study session carries its tag (and, finishing, whether its results are
    /// withheld); its completion is counted at once.
    func tagged(_ action: LoopAction) -> LoopAction {
        guard let studyRun else { return action }
        switch action {
        case .sessionStarted(var record) where record.sessionID == studyRun.sessionID:
            record.study = studyRun.tag
            return .sessionStarted(record)
        case .sessionFinished(var record) where record.sessionID == studyRun.sessionID:
            record.study = studyRun.tag
            if record.outcome.status == .completed {
                let ended = record.anchor.unixNanoseconds(at: record.outcome.endedAt)
                studyCompleted = (studyRun.tag, StudySchedule.Completion(position: studyRun.tag.planPosition, endedUnixNanoseconds: ended))
                // Withheld as it ends (its own completion counted), decided here once: its health
                // record and JSON line carry no result, and the store keeps the record as decided.
                record.resultsWithheld = ResultsWithholding.withheld(tag: studyRun.tag, standing: studyStanding, atUnixNanoseconds: ended)
            }
            return .sessionFinished(record)
        default:
            return action
        }
    }
}
