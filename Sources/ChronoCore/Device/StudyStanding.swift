/// A study as the device runs it (docs/STUDIES.md, "On the device"): the assigned plan and the plan
/// positions this device has completed, asked at an instant. The one place that decides what the idle
/// tap starts while a study runs, what the study line says, when that changes next, and whether a
/// study session's results may be shown yet. Pure: the wall-clock instant is a parameter, so a test
/// moves days by changing it, and the daemon, the state file and the API say the same.
public struct StudyStanding: Hashable, Sendable {
    public var plan: StudyPlan
    public var startUnixNanoseconds: Int64
    /// Plan positions done, each with the instant its session ended.
    public var completions: [StudySchedule.Completion]
    /// Where the person's consent stands (`StudyConsent`): a planned session starts only when it
    /// allows study sessions; a declined or withdrawn consent stops the study on this device.
    public var consent: StudyConsent.Standing

    public init(plan: StudyPlan, startUnixNanoseconds: Int64, completions: [StudySchedule.Completion],
                consent: StudyConsent.Standing = .notNeeded) {
        self.plan = plan
        self.startUnixNanoseconds = startUnixNanoseconds
        self.completions = completions
        self.consent = consent
    }

    public init(assignment: StudyAssignment, completions: [StudySchedule.Completion], consent: StudyConsent.Standing = .notNeeded) {
        self.init(plan: assignment.plan, startUnixNanoseconds: assignment.startUnixNanoseconds, completions: completions, consent: consent)
    }

    /// The standing with one more session done (the daemon's own, before the store's snapshot knows it).
    public func completing(_ completion: StudySchedule.Completion) -> StudyStanding {
        guard !completions.contains(where: { $0.position == completion.position }) else { return self }
        var standing = self
        standing.completions.append(completion)
        return standing
    }

    public func status(at now: Int64) -> StudySchedule.Status {
        StudySchedule.status(plan: plan, startUnixNanoseconds: startUnixNanoseconds, completions: completions, nowUnixNanoseconds: now)
    }

    /// The planned session an idle tap starts at `now`: the next one, when it is due now (its day has
    /// begun and the minimum gap after the last one has passed). Nil when none is due now — the
    /// study is finished, not begun, or the next one is later — and the tap starts the person's own.
    /// No planned session is due while consent is not given (`consentNeeded(at:)` says when a tap
    /// asks for it instead), nor once it was declined or withdrawn.
    public func dueSession(at now: Int64) -> StudyPlan.Session? {
        guard consent.allowsStudySessions else { return nil }
        return plannedSessionDue(at: now)
    }

    /// Whether a tap at `now` meets a planned session that waits for consent: the study's next session
    /// is due, and the person has not answered its consent text yet. The tap then plays
    /// `HapticCue.consentNeeded` and starts nothing.
    public func consentNeeded(at now: Int64) -> Bool {
        consent == .needed && plannedSessionDue(at: now) != nil
    }

    /// The next planned session when the schedule makes it due at `now`, consent aside.
    private func plannedSessionDue(at now: Int64) -> StudyPlan.Session? {
        let status = status(at: now)
        guard let next = status.next, let due = status.nextDueUnixNanoseconds, due <= now else { return nil }
        return plan.sessions[next]
    }

    /// The study as the state file, the API and the companion's Home show it, at `now` in the local
    /// offset `utcOffsetSeconds`. Never an elapsed time: only counts and the clock time of the next due.
    public func line(at now: Int64, utcOffsetSeconds: Int) -> DeviceState.Study {
        let status = status(at: now)
        var study = DeviceState.Study(protocolName: plan.protocolName, protocolVersion: plan.protocolVersion,
                                      sessionsPerDay: plan.schedule.sessionsPerDay, sessions: plan.sessions.count,
                                      done: status.done, missed: status.missed)
        study.consent = consent
        guard let next = status.next, let due = status.nextDueUnixNanoseconds else {
            study.text = "Study \(plan.protocolName) · finished · \(status.done) of \(plan.sessions.count) done"
            return study
        }
        let session = plan.sessions[next]
        study.day = session.day + 1
        study.session = session.slot + 1
        // Stopped by the person: where the plan stood, nothing due, no next time.
        if consent.stopsStudy {
            study.text = "Study \(plan.protocolName) · stopped: consent \(consent.rawValue) · \(status.done) of \(plan.sessions.count) done"
            return study
        }
        study.nextDue = due <= now ? nil : WallTime(unixNanoseconds: due, utcOffsetSeconds: utcOffsetSeconds)
        study.dueNow = due <= now
        let when = due <= now ? "due now" : "next due " + Self.clockText(due, now: now, utcOffsetSeconds: utcOffsetSeconds)
        if consent == .needed {
            study.dueNow = false
            study.text = "Study \(plan.protocolName) · consent needed: open the device's page to read it and accept or decline"
            return study
        }
        study.text = "Study \(plan.protocolName) · day \(session.day + 1) · session \(session.slot + 1) of \(plan.schedule.sessionsPerDay) · \(when)"
        return study
    }

    /// The first instant after `now` at which the line or the due session changes without anything
    /// else happening (a session becoming due, a day ending, the clock text's day changing), or nil.
    public func nextChange(after now: Int64, utcOffsetSeconds: Int) -> Int64? {
        // A stopped study changes only by a new decision or assignment (a new snapshot).
        if consent.stopsStudy { return nil }
        let status = status(at: now)
        var candidates: [Int64] = []
        if let due = status.nextDueUnixNanoseconds, due > now { candidates.append(due) }
        // The next study-day boundary (a session missed, the day number).
        let day = StudySchedule.dayNanoseconds
        if now < startUnixNanoseconds {
            candidates.append(startUnixNanoseconds)
        } else if !status.finished {
            let elapsedDays = (now - startUnixNanoseconds) / day
            candidates.append(startUnixNanoseconds &+ (elapsedDays + 1) &* day)
        }
        // The local midnight ("tomorrow 09:00" becomes "09:00").
        if !status.finished {
            let local = now &+ Int64(utcOffsetSeconds) * 1_000_000_000
            let midnight = (floorDivide(local, day) + 1) * day - Int64(utcOffsetSeconds) * 1_000_000_000
            candidates.append(midnight)
        }
        return candidates.filter { $0 > now }.min()
    }

    /// Whether the results (error, zone, score) of the study session tagged `tag` may be shown at
    /// `now`: always when its block showed feedback; for a withheld block, once every session of the
    /// block is done or missed when the protocol reveals at the block's end, and never when it does
    /// not. A tag of another protocol, version or participant than this plan's is withheld (what its
    /// protocol said is not known here).
    public func resultsShown(for tag: StudyTag, at now: Int64) -> Bool {
        if tag.feedbackShown { return true }
        guard plan.revealsAtBlockEnd(tag) else { return false }
        let block = plan.sessions.filter { $0.blockIndex == tag.blockIndex }
        let states = status(at: now).states
        return block.allSatisfy { states[$0.position] == .done || states[$0.position] == .missed }
    }

    /// "14:00" on the local day of `now`, "tomorrow 09:00" on the next, else "2026-11-23 09:00"; the
    /// minute rounded up, so a session is never shown due before it is.
    static func clockText(_ instant: Int64, now: Int64, utcOffsetSeconds: Int) -> String {
        let minute: Int64 = 60_000_000_000
        let (quotient, remainder) = instant.quotientAndRemainder(dividingBy: minute)
        let rounded = remainder > 0 ? (quotient + 1) * minute : quotient * minute
        let time = WallTime(unixNanoseconds: rounded, utcOffsetSeconds: utcOffsetSeconds)
        let today = WallTime(unixNanoseconds: now, utcOffsetSeconds: utcOffsetSeconds).localDayNumber
        let parts = time.localParts
        let clock = "\(pad(parts.hour, 2)):\(pad(parts.minute, 2))"
        switch time.localDayNumber - today {
        case 0: return clock
        case 1: return "tomorrow " + clock
        default: return time.localMinuteText
        }
    }
}

extension DeviceState {
    /// Where the participant stands in the assigned study (`StudyStanding.line`): the state file's,
    /// the API's and the companion's `study`. Counts and the next due clock time only, never an
    /// elapsed time.
    public struct Study: Hashable, Sendable {
        public var protocolName: String
        public var protocolVersion: Int
        /// The next planned session's study day and its place in that day, from 1 (nil once finished).
        public var day: Int?
        public var session: Int?
        public var sessionsPerDay: Int
        /// Sessions in the whole plan, done and missed so far.
        public var sessions: Int
        public var done: Int
        public var missed: Int
        /// When the next session may start, when that is later than now.
        public var nextDue: WallTime?
        /// Whether the next planned session is due now (an idle tap starts it).
        public var dueNow = false
        /// The line in words: "Study sleep-2026 · day 3 · session 2 of 4 · next due 14:00".
        public var text = ""
        /// Where the person's consent to the protocol stands (`not_needed` without a consent text).
        public var consent: StudyConsent.Standing = .notNeeded

        public init(protocolName: String, protocolVersion: Int, sessionsPerDay: Int, sessions: Int, done: Int, missed: Int) {
            self.protocolName = protocolName
            self.protocolVersion = protocolVersion
            self.sessionsPerDay = sessionsPerDay
            self.sessions = sessions
            self.done = done
            self.missed = missed
        }

        public var finished: Bool { day == nil }

        public var json: JSONValue {
            .object([
                ("protocol", .string(protocolName)),
                ("version", .int(protocolVersion)),
                ("day", day.map { .int($0) } ?? .null),
                ("session", session.map { .int($0) } ?? .null),
                ("sessions_per_day", .int(sessionsPerDay)),
                ("sessions", .int(sessions)),
                ("done", .int(done)),
                ("missed", .int(missed)),
                ("next_due", nextDue.map { .string($0.iso8601) } ?? .null),
                ("due_now", .bool(dueNow)),
                ("finished", .bool(finished)),
                ("line", .string(text)),
                ("consent", .string(consent.rawValue)),
            ])
        }
    }
}
