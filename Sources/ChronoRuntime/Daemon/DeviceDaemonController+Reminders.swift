import ChronoCore

/// Reminders on the loop (docs/STUDIES.md, "Reminders"): the session-due cue when `ReminderRules` says
/// a reminder is due, only while the menu is idle and untouched and a few seconds after a session's
/// end (its own cues come first); the desktop notifier, when there is one, gets the same reminder off
/// the loop. Today's count against the goal and the outstanding reminder go in every state.
extension DeviceDaemonController {
    /// After a session ends, reminders wait this long: the session's last cue is felt on its own.
    static let reminderSettle = TimeSpan.seconds(5)

    /// Completed sessions on the local day of `wall`: the snapshot's, with those this daemon has
    /// completed and the snapshot does not know yet.
    func sessionsToday(atUnixNanoseconds wall: Int64, utcOffsetSeconds: Int) -> Int {
        let today = WallTime(unixNanoseconds: wall, utcOffsetSeconds: utcOffsetSeconds).localDayNumber
        var starts = snapshot.recentCompletions
        for (id, start) in completedHere { starts[id] = start }
        return starts.values.count { $0.localDayNumber == today }
    }

    /// Whether a reminder may play now: idle, the button untouched, settled after the last session.
    func remindersMayPlay(at now: MonotonicInstant) -> Bool {
        guard runner == nil, !stopped, let menu, menu.state == .idle, !menu.isPressed else { return false }
        return idleSince.map { now >= $0 + Self.reminderSettle } ?? true
    }

    func reminderDecision(atUnixNanoseconds wall: Int64, utcOffsetSeconds: Int, busy: Bool) -> ReminderRules.Decision {
        ReminderRules.decide(at: wall, utcOffsetSeconds: utcOffsetSeconds, study: studyStanding,
                             sessionsToday: sessionsToday(atUnixNanoseconds: wall, utcOffsetSeconds: utcOffsetSeconds),
                             inSession: busy, settings: snapshot.reminders, log: reminderLog)
    }

    /// The next instant at which a reminder plays or today's line changes (local midnight), while idle;
    /// nil during a session or while the menu is in use (its own events bring the loop back).
    func reminderDeadline(after now: MonotonicInstant) -> MonotonicInstant? {
        guard runner == nil, !stopped, let menu, menu.state == .idle, !menu.isPressed else { return nil }
        let anchor = wallClock()
        let wall = anchor.unixNanoseconds(at: now)
        let decision = reminderDecision(atUnixNanoseconds: wall, utcOffsetSeconds: anchor.utcOffsetSeconds, busy: false)
        var candidates: [Int64] = []
        var due: MonotonicInstant?
        // Due already: at the loop's last instant (stable as the clock moves on, never before what the
        // loop has handled; "now" would never be reached).
        if let since = decision.dueSinceUnixNanoseconds { due = max(now + TimeSpan(nanoseconds: since - wall), lastInstant) }
        if let next = decision.nextUnixNanoseconds { candidates.append(next) }
        if snapshot.reminders.dailyGoal > 0 || snapshot.reminders.dailyReminder != nil {
            candidates.append(ReminderRules.nextLocalMidnight(after: wall, utcOffsetSeconds: anchor.utcOffsetSeconds))
        }
        let later = candidates.min().map { now + TimeSpan(nanoseconds: $0 - wall) }
        guard let at = [due, later].compactMap({ $0 }).min() else { return nil }
        return idleSince.map { max(at, $0 + Self.reminderSettle) } ?? at
    }

    /// The reminder due now, played: the session-due cue, a console line, the notifier (off the loop)
    /// and the state naming it. Nothing while a reminder may not play.
    func remindIfDue(at now: MonotonicInstant) -> [LoopAction] {
        guard remindersMayPlay(at: now) else { return [] }
        let wall = wallNow(now)
        guard let reminder = reminderDecision(atUnixNanoseconds: wall.unixNanoseconds, utcOffsetSeconds: wall.utcOffsetSeconds, busy: false).due else {
            return []
        }
        reminderLog = reminderLog.recording(reminder, at: wall.unixNanoseconds)
        // A study session that waits for consent cannot start on a tap: its reminder is the cue the
        // tap would play (consent needed), and the line says where to answer instead of to tap.
        let waitsForConsent: Bool
        if case .studySession = reminder.subject, studyStanding?.consent == .needed { waitsForConsent = true } else { waitsForConsent = false }
        let cue = waitsForConsent ? HapticCue.consentNeeded : HapticCue.sessionDue
        var actions: [LoopAction] = [
            .vibrate(PlannedVibration(pattern: cue.pattern, label: .cue(cue), due: now)),
            .console(waitsForConsent ? "Reminder: \(reminder.text)" : "Reminder: \(reminder.text) Tap (\(pressHint)) to start."),
        ]
        if let notifier = reminderNotifier { actions.append(.offLoop { notifier(reminder) }) }
        actions.append(.state(currentState()))
        return actions
    }

    /// Today's count and the outstanding reminder, as every published state carries them.
    func todayAndReminder(at now: MonotonicInstant? = nil) -> (today: DeviceState.Today, reminder: String?) {
        let wall = wallNow(now)
        let count = sessionsToday(atUnixNanoseconds: wall.unixNanoseconds, utcOffsetSeconds: wall.utcOffsetSeconds)
        let reminder = ReminderRules.outstanding(reminderLog, at: wall.unixNanoseconds, utcOffsetSeconds: wall.utcOffsetSeconds,
                                                 study: studyStanding, sessionsToday: count, settings: snapshot.reminders)
        return (DeviceState.Today(sessions: count, goal: snapshot.reminders.dailyGoal), reminder?.text)
    }

    /// A completed session of this daemon counts today at once (`tagged` sees its finish record).
    func countCompleted(_ record: SessionFinishRecord) {
        guard record.outcome.status == .completed else { return }
        completedHere[record.sessionID] = WallTime(unixNanoseconds: record.anchor.unixNanoseconds, utcOffsetSeconds: record.anchor.utcOffsetSeconds)
    }
}
