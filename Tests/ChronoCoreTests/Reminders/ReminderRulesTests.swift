import ChronoCore
import Testing

/// `ReminderRules` on virtual time: days, midnights and quiet hours pass by changing `now`.
@Suite("Reminder rules")
struct ReminderRulesTests {
    static let minute: Int64 = 60_000_000_000
    static let hour: Int64 = 60 * minute
    static let day: Int64 = 24 * hour
    /// 2026-11-20 00:00 UTC: the study's day 0 begins.
    static let start: Int64 = 1_795_132_800_000_000_000
    /// 3 days × 2 sessions of Challenge 10 s × 2, at least 60 minutes apart.
    static let protocolText = """
        {
          "name": "sleep-2026",
          "version": 1,
          "schedule": { "sessions_per_day": 2, "days": 3, "minimum_gap_minutes": 60 },
          "blocks": [ { "name": "baseline", "mode": "challenge", "sessions": 6, "interval": "10s", "attempts": 2 } ]
        }
        """

    static func study(_ completions: [(Int, Int64)] = []) throws -> StudyStanding {
        let plan = StudyPlan(studyProtocol: try StudyProtocol.parse(protocolText), participant: "P017", participantIndex: 0, seed: 7)
        return StudyStanding(plan: plan, startUnixNanoseconds: start,
                             completions: completions.map { StudySchedule.Completion(position: $0.0, endedUnixNanoseconds: $0.1) })
    }

    static let night = QuietHours(parsing: "22:00-07:00")!

    static func study(consent: StudyConsent.Standing) throws -> StudyStanding {
        let standing = try study()
        return StudyStanding(plan: standing.plan, startUnixNanoseconds: start, completions: [], consent: consent)
    }

    static func decide(at now: Int64, offset: Int = 0, study: StudyStanding?, today: Int = 0, inSession: Bool = false,
                       settings: ReminderSettings = ReminderSettings(), log: ReminderLog = ReminderLog()) -> ReminderRules.Decision {
        ReminderRules.decide(at: now, utcOffsetSeconds: offset, study: study, sessionsToday: today, inSession: inSession,
                             settings: settings, log: log)
    }

    @Test("a study session is reminded as it becomes due, and once more an hour later while still due; never a third time")
    func studyTwice() throws {
        let study = try Self.study()
        let before = Self.decide(at: Self.start - Self.minute, study: study)
        #expect(before.due == nil && before.nextUnixNanoseconds == Self.start)
        let first = Self.decide(at: Self.start, study: study)
        #expect(first.due == Reminder(subject: .studySession(position: 0, ordinal: 1), text: "Study sleep-2026: day 1, session 1 is due."))
        // Still due a minute later, since the same instant: a loop's deadline that does not move.
        #expect(Self.decide(at: Self.start + Self.minute, study: study).dueSinceUnixNanoseconds == Self.start)
        let log = ReminderLog().recording(first.due!, at: Self.start)
        let waiting = Self.decide(at: Self.start + Self.minute, study: study, log: log)
        #expect(waiting.due == nil && waiting.nextUnixNanoseconds == Self.start + Self.hour)
        let second = Self.decide(at: Self.start + Self.hour, study: study, log: log)
        #expect(second.due == Reminder(subject: .studySession(position: 0, ordinal: 2), text: "Study sleep-2026: day 1, session 1 is still due."))
        let after = Self.decide(at: Self.start + 2 * Self.hour, study: study, log: log.recording(second.due!, at: Self.start + Self.hour))
        #expect(after.due == nil && after.nextUnixNanoseconds == nil)
    }

    @Test("reminder-repeat 0: one reminder per due session; a daemon that comes up late reminds at once")
    func repeatOff() throws {
        let settings = ReminderSettings(repeatDelay: nil)
        let late = Self.start + 5 * Self.hour
        let first = Self.decide(at: late, study: try Self.study(), settings: settings)
        #expect(first.due?.subject == .studySession(position: 0, ordinal: 1))
        let after = Self.decide(at: late + Self.minute, study: try Self.study(), settings: settings,
                                log: ReminderLog().recording(first.due!, at: late))
        #expect(after.due == nil && after.nextUnixNanoseconds == nil)
    }

    @Test("the next session's reminder comes when it becomes due: the minimum gap after the last one done")
    func nextSession() throws {
        let log = ReminderLog().recording(Reminder(subject: .studySession(position: 0, ordinal: 1), text: ""), at: Self.start)
        let study = try Self.study([(0, Self.start + 8 * Self.hour)])
        let decision = Self.decide(at: Self.start + 8 * Self.hour, study: study, log: log)
        #expect(decision.due == nil && decision.nextUnixNanoseconds == Self.start + 9 * Self.hour)
        let due = Self.decide(at: Self.start + 9 * Self.hour, study: study, log: log)
        #expect(due.due == Reminder(subject: .studySession(position: 1, ordinal: 1), text: "Study sleep-2026: day 1, session 2 is due."))
    }

    @Test("quiet hours across midnight: a session due at 00:00 is reminded at 07:00")
    func quietWaits() throws {
        let settings = ReminderSettings(quietHours: Self.night)
        let decision = Self.decide(at: Self.start, study: try Self.study(), settings: settings)
        #expect(decision.due == nil && decision.nextUnixNanoseconds == Self.start + 7 * Self.hour)
        #expect(Self.decide(at: Self.start + 7 * Self.hour, study: try Self.study(), settings: settings).due?.subject
                == .studySession(position: 0, ordinal: 1))
        // The second waits too: 06:30 + 1 h is 07:30, outside; 21:30 + 1 h is 22:30, inside, and its day ends first.
        let evening = ReminderLog().recording(Reminder(subject: .studySession(position: 0, ordinal: 1), text: ""), at: Self.start + 21 * Self.hour + 30 * Self.minute)
        let skipped = Self.decide(at: Self.start + 22 * Self.hour, study: try Self.study(), settings: settings, log: evening)
        #expect(skipped.due == nil && skipped.nextUnixNanoseconds == nil)
    }

    @Test("a session whose reminder would wait past its day's end is skipped; the next day's first is reminded after quiet hours")
    func quietPastDayEnd() throws {
        let study = try Self.study([(0, Self.start + 21 * Self.hour + 30 * Self.minute)])
        let settings = ReminderSettings(quietHours: Self.night)
        let evening = Self.decide(at: Self.start + 22 * Self.hour + 30 * Self.minute, study: study, settings: settings)
        #expect(evening.due == nil && evening.nextUnixNanoseconds == nil)
        let midnight = Self.decide(at: Self.start + Self.day, study: study, settings: settings)
        #expect(midnight.due == nil && midnight.nextUnixNanoseconds == Self.start + Self.day + 7 * Self.hour)
        let morning = Self.decide(at: Self.start + Self.day + 7 * Self.hour, study: study, settings: settings)
        #expect(morning.due == Reminder(subject: .studySession(position: 2, ordinal: 1), text: "Study sleep-2026: day 2, session 1 is due."))
    }

    @Test("nothing is due during a session: the reminder waits for its end")
    func neverInSession() throws {
        let decision = Self.decide(at: Self.start + Self.minute, study: try Self.study(), inSession: true)
        #expect(decision.due == nil)
        #expect(Self.decide(at: Self.start + 2 * Self.minute, study: try Self.study()).due?.subject == .studySession(position: 0, ordinal: 1))
    }

    @Test("daily reminder at 18:30 local (UTC+1): its text counts today's sessions against the goal")
    func daily() {
        let offset = 3600
        let noon = Self.start + 11 * Self.hour  // 12:00 local
        let at = Self.start + 17 * Self.hour + 30 * Self.minute  // 18:30 local
        let settings = ReminderSettings(dailyReminder: TimeOfDay(parsing: "18:30"), dailyGoal: 3)
        let waiting = Self.decide(at: noon, offset: offset, study: nil, today: 1, settings: settings)
        #expect(waiting.due == nil && waiting.nextUnixNanoseconds == at)
        let day = WallTime(unixNanoseconds: at, utcOffsetSeconds: offset).localDayNumber
        #expect(Self.decide(at: at, offset: offset, study: nil, today: 1, settings: settings).due
                == Reminder(subject: .daily(localDay: day), text: "Time to train: 1 of 3 sessions today."))
        let noGoal = ReminderSettings(dailyReminder: TimeOfDay(parsing: "18:30"))
        #expect(Self.decide(at: at, offset: offset, study: nil, settings: noGoal).due?.text == "Time to train: no session yet today.")
        // The goal reached: not today; tomorrow's is next.
        let met = Self.decide(at: at, offset: offset, study: nil, today: 3, settings: settings)
        #expect(met.due == nil && met.nextUnixNanoseconds == at + Self.day)
        let played = ReminderLog().recording(Reminder(subject: .daily(localDay: day), text: ""), at: at)
        #expect(Self.decide(at: at + Self.minute, offset: offset, study: nil, today: 1, settings: settings, log: played).nextUnixNanoseconds == at + Self.day)
    }

    @Test("daily reminder and midnight: played at 23:50, the next is tomorrow's; inside quiet hours it waits for 07:00 the same day, or is skipped")
    func dailyMidnight() {
        let at = Self.start + 23 * Self.hour + 50 * Self.minute
        let late = ReminderSettings(dailyReminder: TimeOfDay(parsing: "23:50"))
        let played = ReminderLog().recording(Reminder(subject: .daily(localDay: WallTime(unixNanoseconds: at, utcOffsetSeconds: 0).localDayNumber), text: ""), at: at)
        #expect(Self.decide(at: at + 5 * Self.minute, study: nil, settings: late, log: played).nextUnixNanoseconds == at + Self.day)
        // After midnight the new day's count starts again: due at 23:50 of the new day.
        #expect(Self.decide(at: Self.start + Self.day, study: nil, settings: late, log: played).nextUnixNanoseconds == at + Self.day)
        let early = ReminderSettings(quietHours: Self.night, dailyReminder: TimeOfDay(parsing: "00:10"))
        #expect(Self.decide(at: Self.start, study: nil, settings: early).nextUnixNanoseconds == Self.start + 7 * Self.hour)
        let skipped = ReminderSettings(quietHours: Self.night, dailyReminder: TimeOfDay(parsing: "23:30"))
        let decision = Self.decide(at: Self.start + 12 * Self.hour, study: nil, settings: skipped)
        #expect(decision.due == nil && decision.nextUnixNanoseconds == nil)
    }

    @Test("while a study runs the daily reminder is off; once it is finished, the daily one plays")
    func studyReplacesDaily() throws {
        let settings = ReminderSettings(repeatDelay: nil, dailyReminder: TimeOfDay(parsing: "12:00"))
        let log = ReminderLog().recording(Reminder(subject: .studySession(position: 0, ordinal: 1), text: ""), at: Self.start)
        #expect(Self.decide(at: Self.start + 12 * Self.hour, study: try Self.study(), settings: settings, log: log).due == nil)
        let done = try Self.study((0..<6).map { ($0, Self.start + Int64($0) * 2 * Self.hour) })
        let after = Self.start + 3 * Self.day + 12 * Self.hour
        #expect(Self.decide(at: after, study: done, settings: settings).due?.subject
                == .daily(localDay: WallTime(unixNanoseconds: after, utcOffsetSeconds: 0).localDayNumber))
    }

    @Test("the reminder shown is the latest while its subject is still due")
    func outstanding() throws {
        let reminder = Reminder(subject: .studySession(position: 0, ordinal: 1), text: "Study sleep-2026: day 1, session 1 is due.")
        let log = ReminderLog().recording(reminder, at: Self.start)
        #expect(ReminderRules.outstanding(log, at: Self.start + Self.hour, utcOffsetSeconds: 0, study: try Self.study(), sessionsToday: 0,
                                          settings: ReminderSettings()) == reminder)
        #expect(ReminderRules.outstanding(log, at: Self.start + Self.hour, utcOffsetSeconds: 0, study: try Self.study([(0, Self.start + 30 * Self.minute)]),
                                          sessionsToday: 1, settings: ReminderSettings()) == nil)
        #expect(ReminderRules.todayText(sessionsToday: 1, goal: 3) == "Today: 1 of 3 sessions")
        #expect(ReminderRules.todayText(sessionsToday: 1, goal: 0) == "Today: 1 session")
        #expect(ReminderRules.nextLocalMidnight(after: Self.start + Self.hour, utcOffsetSeconds: 3600) == Self.start + Self.day - Self.hour)
    }

    @Test("a due session that waits for consent is reminded to ask for it, and stays outstanding; a declined study gives the daily reminder back")
    func consent() throws {
        let waiting = try Self.study(consent: .needed)
        let first = Self.decide(at: Self.start, study: waiting)
        #expect(first.due == Reminder(subject: .studySession(position: 0, ordinal: 1),
                                      text: "Study sleep-2026: day 1, session 1 is due and waits for your consent: open the device's page to read it and accept or decline."))
        let log = ReminderLog().recording(first.due!, at: Self.start)
        #expect(ReminderRules.outstanding(log, at: Self.start + Self.minute, utcOffsetSeconds: 0, study: waiting,
                                          sessionsToday: 0, settings: ReminderSettings()) == first.due)
        let daily = ReminderSettings(dailyReminder: TimeOfDay(minuteOfDay: 9 * 60))
        for stopped in [StudyConsent.Standing.declined, .withdrawn] {
            let decision = Self.decide(at: Self.start + 9 * Self.hour, study: try Self.study(consent: stopped), settings: daily)
            #expect(decision.due == Reminder(subject: .daily(localDay: WallTime(unixNanoseconds: Self.start, utcOffsetSeconds: 0).localDayNumber),
                                             text: "Time to train: no session yet today."))
        }
    }
}

/// The quiet-hours window and the settings' one parser each.
@Suite("Reminder settings")
struct ReminderSettingsTests {
    static let hour: Int64 = 3_600_000_000_000
    static let midnight = ReminderRulesTests.start

    @Test("quiet hours across midnight contain 22:00 to 06:59 and end at 07:00; a daytime window stays inside its day")
    func window() {
        let night = QuietHours(parsing: "22:00-07:00")!
        #expect(night.contains(Self.midnight - 2 * Self.hour, utcOffsetSeconds: 0))
        #expect(night.contains(Self.midnight, utcOffsetSeconds: 0))
        #expect(night.contains(Self.midnight + 7 * Self.hour - 1, utcOffsetSeconds: 0))
        #expect(!night.contains(Self.midnight + 7 * Self.hour, utcOffsetSeconds: 0))
        #expect(!night.contains(Self.midnight - 2 * Self.hour - 1, utcOffsetSeconds: 0))
        #expect(night.firstAllowed(notBefore: Self.midnight - Self.hour, utcOffsetSeconds: 0) == Self.midnight + 7 * Self.hour)
        #expect(night.firstAllowed(notBefore: Self.midnight + 3 * Self.hour, utcOffsetSeconds: 0) == Self.midnight + 7 * Self.hour)
        #expect(night.firstAllowed(notBefore: Self.midnight + 9 * Self.hour, utcOffsetSeconds: 0) == Self.midnight + 9 * Self.hour)
        // At UTC+1 the same local window is an hour earlier in UTC.
        #expect(night.firstAllowed(notBefore: Self.midnight, utcOffsetSeconds: 3600) == Self.midnight + 6 * Self.hour)
        let lunch = QuietHours(parsing: "12:00-13:30")!
        #expect(lunch.contains(Self.midnight + 12 * Self.hour, utcOffsetSeconds: 0) && !lunch.contains(Self.midnight + 11 * Self.hour, utcOffsetSeconds: 0))
        #expect(lunch.firstAllowed(notBefore: Self.midnight + 13 * Self.hour, utcOffsetSeconds: 0) == Self.midnight + 13 * Self.hour + Self.hour / 2)
    }

    @Test("each setting's text: canonical forms, and the sentence for what is refused")
    func parsing() throws {
        #expect(try ReminderSettings.repeatDelay(parsing: "1h30m") == .seconds(5400))
        #expect(ReminderSettings.repeatText(try ReminderSettings.repeatDelay(parsing: "90m")) == "1h30m")
        #expect(ReminderSettings.repeatText(try ReminderSettings.repeatDelay(parsing: "2h")) == "2h")
        #expect(ReminderSettings.repeatText(try ReminderSettings.repeatDelay(parsing: "45m")) == "45m")
        #expect(try ReminderSettings.repeatDelay(parsing: "0") == nil && ReminderSettings.repeatText(nil) == "0")
        for bad in ["4m", "13h", "1h1h", "30", "m", "1.5h", "-1h"] {
            #expect(throws: ReminderSettingError("reminder-repeat is a delay from 5m to 12h such as 30m, 1h or 1h30m, or 0 for no second reminder; got '\(bad)'.")) {
                try ReminderSettings.repeatDelay(parsing: bad)
            }
        }
        #expect(try ReminderSettings.quietHours(parsing: "7:00-22:00")?.description == "07:00-22:00")
        #expect(try ReminderSettings.quietHours(parsing: "off") == nil)
        #expect(throws: ReminderSettingError("quiet-hours is off or a local time window HH:MM-HH:MM with different ends, such as 22:00-07:00; got '22:00-22:00'.")) {
            try ReminderSettings.quietHours(parsing: "22:00-22:00")
        }
        #expect(try ReminderSettings.dailyReminder(parsing: "18:30")?.description == "18:30")
        #expect(throws: ReminderSettingError("daily-reminder is off or a local time HH:MM on a 24-hour clock, such as 18:30; got '24:00'.")) {
            try ReminderSettings.dailyReminder(parsing: "24:00")
        }
        #expect(try ReminderSettings.dailyGoal(parsing: "3") == 3)
        #expect(throws: ReminderSettingError("daily-goal is a whole number of sessions a day from 0 (no goal) to 20; got '21'.")) {
            try ReminderSettings.dailyGoal(parsing: "21")
        }
    }
}
