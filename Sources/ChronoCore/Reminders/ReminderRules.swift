/// Which reminder is due now and when the next one is (docs/STUDIES.md, "Reminders"). Pure on the
/// wall-clock instant and UTC offset it is given, so a test moves days and quiet hours by changing them.
///
/// - A study session is reminded when it becomes due, and once more `reminder-repeat` later while it is
///   still due (never more than twice); the study's own reminders replace the daily one while it runs.
/// - Outside studies, the daily reminder plays at its local time unless today's sessions already
///   reach the daily goal (one session when there is no goal); a device that was off or busy then
///   reminds as soon as it can, the same day.
/// - A reminder falling inside quiet hours waits for their end, as long as its subject is still there
///   then (the study session's day not over; the daily reminder's day not over); otherwise it is
///   skipped. None is due during a session: it waits for the session's end.
public enum ReminderRules {
    public struct Decision: Hashable, Sendable {
        /// The reminder to give now (nil: none).
        public var due: Reminder?
        /// Since when `due` has been due (its scheduled instant, at or before now): a deadline that
        /// does not move while the caller's clock does, so a loop woken for it finds it due.
        public var dueSinceUnixNanoseconds: Int64?
        /// When the next reminder is, later than now, if nothing else happens first (nil: none planned).
        public var nextUnixNanoseconds: Int64?
    }

    /// - Parameters:
    ///   - study: the assigned study's standing (nil: none).
    ///   - sessionsToday: completed sessions on the local day of `now`.
    ///   - inSession: a session is running: nothing is due until it ends.
    public static func decide(at now: Int64, utcOffsetSeconds: Int, study: StudyStanding?, sessionsToday: Int,
                              inSession: Bool, settings: ReminderSettings, log: ReminderLog) -> Decision {
        func allowed(_ instant: Int64) -> Int64 {
            settings.quietHours?.firstAllowed(notBefore: max(instant, now), utcOffsetSeconds: utcOffsetSeconds) ?? max(instant, now)
        }
        var candidates: [(reminder: Reminder, at: Int64, scheduled: Int64)] = []
        // A study the person declined or withdrew from is stopped here: their own training's daily
        // reminder applies again.
        if let study, !study.status(at: now).finished, study.consent.allowsStudySessions || study.consent == .needed {
            if let candidate = studyCandidate(study, now: now, settings: settings, log: log, allowed: allowed) { candidates.append(candidate) }
        } else if let time = settings.dailyReminder {
            let today = WallTime(unixNanoseconds: now, utcOffsetSeconds: utcOffsetSeconds).localDayNumber
            for day in [today, today + 1] {
                if let done = log.dailyDay, done >= day { continue }
                if day == today, sessionsToday >= max(settings.dailyGoal, 1) { continue }
                let scheduled = time.unixNanoseconds(onLocalDay: day, utcOffsetSeconds: utcOffsetSeconds)
                let at = allowed(scheduled)
                guard WallTime(unixNanoseconds: at, utcOffsetSeconds: utcOffsetSeconds).localDayNumber == day else { continue }
                let text = dailyText(sessionsToday: day == today ? sessionsToday : 0, goal: settings.dailyGoal)
                candidates.append((Reminder(subject: .daily(localDay: day), text: text), at, min(scheduled, at)))
                break
            }
        }
        let due = inSession ? nil : candidates.first { $0.at <= now }
        let next = candidates.map(\.at).filter { $0 > now }.min()
        return Decision(due: due?.reminder, dueSinceUnixNanoseconds: due?.scheduled, nextUnixNanoseconds: next)
    }

    /// The latest reminder while its subject is still due at `now` (the study session not done, the
    /// day's goal not reached on its day): what Home, `status` and the state file show.
    public static func outstanding(_ log: ReminderLog, at now: Int64, utcOffsetSeconds: Int, study: StudyStanding?,
                                   sessionsToday: Int, settings: ReminderSettings) -> Reminder? {
        guard let latest = log.latest?.reminder else { return nil }
        switch latest.subject {
        case .studySession(let position, _):
            guard let study else { return nil }
            let due = study.dueSession(at: now)?.position ?? (study.consentNeeded(at: now) ? study.status(at: now).next : nil)
            guard due == position else { return nil }
            return latest
        case .daily(let day):
            let today = WallTime(unixNanoseconds: now, utcOffsetSeconds: utcOffsetSeconds).localDayNumber
            guard day == today, sessionsToday < max(settings.dailyGoal, 1) else { return nil }
            return Reminder(subject: latest.subject, text: dailyText(sessionsToday: sessionsToday, goal: settings.dailyGoal))
        }
    }

    /// Today's count against the goal in words: "Today: 1 of 3 sessions", "Today: 2 sessions" (no goal).
    public static func todayText(sessionsToday: Int, goal: Int) -> String {
        goal > 0 ? "Today: \(sessionsToday) of \(CountText.of(goal, "session"))" : "Today: \(CountText.of(sessionsToday, "session"))"
    }

    /// The first local midnight after `now`: where today's count starts again from 0.
    public static func nextLocalMidnight(after now: Int64, utcOffsetSeconds: Int) -> Int64 {
        let day = WallTime(unixNanoseconds: now, utcOffsetSeconds: utcOffsetSeconds).localDayNumber
        return TimeOfDay(minuteOfDay: 0)!.unixNanoseconds(onLocalDay: day + 1, utcOffsetSeconds: utcOffsetSeconds)
    }

    static func studyCandidate(_ study: StudyStanding, now: Int64, settings: ReminderSettings, log: ReminderLog,
                               allowed: (Int64) -> Int64) -> (reminder: Reminder, at: Int64, scheduled: Int64)? {
        let status = study.status(at: now)
        guard let next = status.next, let dueAt = status.nextDueUnixNanoseconds else { return nil }
        let session = study.plan.sessions[next]
        let played = log.studyPosition == next ? log.studyPlayed : []
        guard played.count < (settings.repeatDelay == nil ? 1 : 2) else { return nil }
        let scheduled = played.last.map { $0 &+ (settings.repeatDelay?.nanoseconds ?? 0) } ?? dueAt
        let at = allowed(scheduled)
        // Past its day's end the session is missed: nothing to remind of.
        let dayEnd = study.startUnixNanoseconds.addingReportingOverflow(Int64(session.day + 1).multipliedReportingOverflow(by: StudySchedule.dayNanoseconds).partialValue)
        guard dayEnd.overflow || at < dayEnd.partialValue else { return nil }
        let still = played.isEmpty ? "is due" : "is still due"
        // Nothing starts before the consent: the reminder asks for it, in the words of the tap's cue.
        let text = study.consent == .needed
            ? "Study \(study.plan.protocolName): day \(session.day + 1), session \(session.slot + 1) \(still) and waits for your consent: open the device's page to read it and accept or decline."
            : "Study \(study.plan.protocolName): day \(session.day + 1), session \(session.slot + 1) \(still)."
        return (Reminder(subject: .studySession(position: next, ordinal: played.count + 1), text: text), at, min(scheduled, at))
    }

    static func dailyText(sessionsToday: Int, goal: Int) -> String {
        goal > 0 ? "Time to train: \(sessionsToday) of \(CountText.of(goal, "session")) today."
            : "Time to train: no session yet today."
    }
}
