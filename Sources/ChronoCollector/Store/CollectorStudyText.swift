import ChronoCore

/// What `chronoception-collector protocol …` prints, as pure functions of stored values, so tests
/// state it exactly. Names typed by people or sent by devices go through `TerminalSafeText`. Times
/// are UTC, as everywhere else in the collector's commands; days are counted from 1 for people.
public enum CollectorStudyText {
    /// `2026-11-27 09:00 UTC`.
    public static func utc(_ nanoseconds: Int64) -> String {
        let seconds = nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds - 999_999_999) / 1_000_000_000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let date = CivilDate(daysSinceEpoch: days)
        let minutes = (seconds - days * 86_400) / 60
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(date.year)-\(two(Int64(date.month)))-\(two(Int64(date.day))) \(two(minutes / 60)):\(two(minutes % 60)) UTC"
    }

    /// The start of study day 0: 00:00 local time of `date`, or of the day `now` falls on when no date
    /// is given. `utcOffsetSeconds` gives the local offset at a Unix second (taken at the day's
    /// midnight, so a date across a change of summer time gets its own offset).
    public static func start(date: String?, nowUnixNanoseconds now: Int64,
                             utcOffsetSeconds offsetAt: (Int64) -> Int) throws(CollectorError) -> Int64 {
        let day: Int64
        if let date {
            guard let parsed = CalendarDay(parsing: date) else {
                throw .invalidValue("--start takes a date as YYYY-MM-DD, e.g. 2026-11-27 (day 1 of the study begins at 00:00 there); got '\(TerminalSafeText.sanitized(date, keepNewlines: false).prefix(40))'.")
            }
            day = parsed.daysSinceEpoch
        } else {
            let local = now + Int64(offsetAt(now / 1_000_000_000)) * 1_000_000_000
            day = local >= 0 ? local / StudySchedule.dayNanoseconds : (local - StudySchedule.dayNanoseconds + 1) / StudySchedule.dayNanoseconds
        }
        let midnightUTC = day * StudySchedule.dayNanoseconds
        return midnightUTC - Int64(offsetAt(midnightUTC / 1_000_000_000)) * 1_000_000_000
    }

    /// A schedule in words: `28 sessions over 14 days, 2 a day at least 180 minutes apart`.
    public static func shape(_ studyProtocol: StudyProtocol) -> String {
        let schedule = studyProtocol.schedule
        let sessions = studyProtocol.totalSessions
        var text = "\(sessions) session\(sessions == 1 ? "" : "s") over \(schedule.days) day\(schedule.days == 1 ? "" : "s"), \(schedule.sessionsPerDay) a day"
        if schedule.minimumGapMinutes > 0 { text += " at least \(schedule.minimumGapMinutes) minutes apart" }
        return text
    }

    /// The line `protocol load` prints: what it did, or (a conflict) why it refused and which version to
    /// give the changed file (`nextVersion`: one above the highest loaded of that name).
    public static func loaded(_ studyProtocol: StudyProtocol, _ result: StudyProtocolLoad, nextVersion: Int? = nil) -> String {
        let label = "\(studyProtocol.name)@\(studyProtocol.version)"
        switch result {
        case .added:
            let blocks = studyProtocol.blocks.count
            return "Loaded \(label): \(blocks) block\(blocks == 1 ? "" : "s"), \(shape(studyProtocol)). Assign it with `chronoception-collector protocol assign \(label) --participant P`."
        case .unchanged(let loaded):
            return "\(label) was loaded on \(utc(loaded)) with the same content; nothing changed."
        case .conflict(let loaded):
            return "\(label) was loaded on \(utc(loaded)) with other content, and a loaded protocol never changes (participants may follow it). Give the changed file \"version\": \(nextVersion ?? studyProtocol.version + 1) and load it as a new protocol."
        }
    }

    /// `protocol list`: a header and one row per protocol.
    public static func list(_ protocols: [StoredStudyProtocol]) -> [String] {
        guard !protocols.isEmpty else {
            return ["No protocol is loaded. `chronoception-collector protocol load FILE` loads one (docs/STUDIES.md has a worked example)."]
        }
        let rows = [["Protocol", "Blocks", "Sessions", "Days", "Participants", "Loaded"]] + protocols.map { stored in
            let parsed = try? StudyProtocol.parse(stored.document)
            return ["\(stored.name)@\(stored.version)", parsed.map { String($0.blocks.count) } ?? "?",
                    parsed.map { String($0.totalSessions) } ?? "?", parsed.map { String($0.schedule.days) } ?? "?",
                    String(stored.activeAssignments), utc(stored.loadedUnixNanoseconds)]
        }
        return table(rows)
    }

    /// The lines `protocol assign` prints.
    public static func assigned(_ record: StudyAssignmentRecord, _ change: StudyAssignChange, hasDevice: Bool) -> [String] {
        let who = TerminalSafeText.quoted(record.participant, limit: 80)
        let plan = "participant index \(record.participantIndex), seed \(record.seed); day 1 begins \(utc(record.startUnixNanoseconds))"
        var lines: [String]
        switch change {
        case .assigned:
            lines = ["Assigned \(record.protocolLabel) to participant \(who) (\(plan)). Their devices receive it with their next sync."]
        case .restored:
            lines = ["Assigned \(record.protocolLabel) to participant \(who) again, with the plan they had (\(plan)). Their devices receive it with their next sync."]
        case .unchanged:
            return ["Participant \(who) is assigned \(record.protocolLabel) already (\(plan)); nothing changed."]
        }
        if !hasDevice {
            lines.append("No enrolled device belongs to participant \(who) yet: enrol one with `chronoception-collector enrol NAME --participant \(TerminalSafeText.sanitized(record.participant, keepNewlines: false))`.")
        }
        return lines
    }

    /// The line `protocol unassign` prints.
    public static func unassigned(_ record: StudyAssignmentRecord) -> String {
        "Unassigned \(record.protocolLabel) from participant \(TerminalSafeText.quoted(record.participant, limit: 80)); their devices drop it at their next sync. Their sessions stay; assigning \(record.protocolLabel) again restores the same plan."
    }

    /// `protocol status`: per participant, the study day, done, due (today, not done yet), missed, upcoming (days to come), when the next
    /// may start, and the participant's consent (`consents`: each device's newest decision, by participant; see `consentCell`).
    public static func status(_ rows: [StudyStatusRow], nowUnixNanoseconds now: Int64,
                              consents: [String: [StudyConsent.Record]] = [:]) -> [String] {
        guard !rows.isEmpty else {
            return ["No participant is assigned a protocol. `chronoception-collector protocol assign NAME --participant P` assigns one."]
        }
        let cells = [["Participant", "Protocol", "Day", "Done", "Due", "Missed", "Upcoming", "Consent", "Next due"]] + rows.map { row in
            let consent = consentCell(consents[row.assignment.participant] ?? [], protocolName: row.assignment.protocolName)
            guard let status = row.status else {
                return [row.assignment.participant, row.assignment.protocolLabel, "?", "?", "?", "?", "?", consent, "the protocol cannot be read"]
            }
            let day: String
            if let current = status.day {
                day = "\(current + 1)"
            } else {
                day = now < row.assignment.startUnixNanoseconds ? "not begun" : "ended"
            }
            let next: String
            if let due = status.nextDueUnixNanoseconds {
                next = due <= now ? "now" : utc(due)
            } else {
                next = "finished"
            }
            return [row.assignment.participant, row.assignment.protocolLabel, day, String(status.done), String(status.due),
                    String(status.missed), String(status.upcoming), consent, next]
        }
        return table(cells.map { $0.map { TerminalSafeText.sanitized($0, keepNewlines: false) } })
    }

    /// The participant's newest decision on the protocol from any of their devices: `—` (none synced),
    /// `accepted`, or `declined`/`withdrawn` with "study stopped".
    static func consentCell(_ records: [StudyConsent.Record], protocolName: String) -> String {
        guard let newest = records.filter({ $0.protocolName == protocolName }).max(by: { $0.decidedUnixNanoseconds < $1.decidedUnixNanoseconds }) else { return "—" }
        return newest.decision == .accepted ? "accepted" : "\(newest.decision.rawValue), study stopped"
    }

    /// Rows padded to their widest cell, two spaces apart, the last column unpadded.
    static func table(_ rows: [[String]]) -> [String] {
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }
    }
}
