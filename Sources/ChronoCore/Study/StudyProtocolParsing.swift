extension StudyProtocol {
    /// The one validator of a protocol document (JSON text, docs/STUDIES.md): reads it, checks every
    /// field against the core's limits (`StudyLimits`, `TrainingInterval`'s range,
    /// `SessionConfiguration.countRange`), and returns the protocol or every problem with its line and
    /// the fix. Unknown keys are refused (a misspelt key would otherwise silently take its default).
    public static func parse(_ text: String) throws(StudyProtocolError) -> StudyProtocol {
        guard text.utf8.count <= StudyLimits.documentCharacters else {
            throw StudyProtocolError(problems: [StudyProtocolProblem(
                line: 0, message: "the document is over \(StudyLimits.documentCharacters / 1024) KiB; a protocol is a few kilobytes, so this is not one")])
        }
        let root: LocatedJSON
        do { root = try LocatedJSON.parse(text) } catch {
            throw StudyProtocolError(problems: [StudyProtocolProblem(line: error.line, message: "not valid JSON: " + error.message)])
        }
        var reading = StudyProtocolReading()
        guard let result = reading.document(root) else {
            throw StudyProtocolError(problems: reading.problems.sorted { $0.line < $1.line })
        }
        return result
    }
}

/// The validator's state: the problems found so far. Each field reader records a problem and returns
/// nil, so one pass reports every bad field, not only the first.
struct StudyProtocolReading {
    var problems: [StudyProtocolProblem] = []

    static let documentKeys = ["name", "version", "description", "consent", "schedule", "blocks"]
    static let scheduleKeys = ["sessions_per_day", "days", "minimum_gap_minutes"]
    static let blockKeys = ["name", "condition", "mode", "sessions", "interval", "intervals", "order", "attempts", "repetitions",
                            "fear_threshold", "feedback", "reveal_at_block_end"]

    mutating func problem(_ line: Int, _ message: String) {
        problems.append(StudyProtocolProblem(line: line, message: message))
    }

    mutating func document(_ root: LocatedJSON) -> StudyProtocol? {
        guard case .object(let members) = root.value else {
            problem(root.line, "the document is \(root.kindName); a protocol is one JSON object, { \"name\": …, \"version\": …, \"schedule\": …, \"blocks\": [ … ] }")
            return nil
        }
        let fields = self.fields(members, allowed: Self.documentKeys, in: "the protocol", line: root.line)
        let name = fields["name"].flatMap { identifier($0, what: "name") }
        if fields["name"] == nil { problem(root.line, "the protocol has no \"name\"; add one, e.g. \"name\": \"sleep-2026\"") }
        let version = fields["version"].flatMap { integer($0, what: "version", range: StudyLimits.versions, fix: "a protocol's version is a whole number from 1; a changed protocol takes the next one") }
        if fields["version"] == nil { problem(root.line, "the protocol has no \"version\"; add \"version\": 1 (and raise it whenever the protocol changes)") }
        var description: String?
        if let value = fields["description"] { description = self.text(value, what: "description", limit: StudyLimits.consentCharacters.upperBound) }
        var consent: String?
        if let value = fields["consent"] { consent = text(value, what: "consent", limit: StudyLimits.consentCharacters.upperBound) }
        let schedule = fields["schedule"].flatMap { self.schedule($0) }
        if fields["schedule"] == nil {
            problem(root.line, "the protocol has no \"schedule\"; add \"schedule\": { \"sessions_per_day\": 2, \"days\": 14, \"minimum_gap_minutes\": 120 }")
        }
        var blocks: [StudyProtocol.Block]?
        if let value = fields["blocks"] {
            blocks = self.blocks(value)
        } else {
            problem(root.line, "the protocol has no \"blocks\"; add \"blocks\": [ { \"name\": …, \"mode\": …, \"interval\": … } ]")
        }
        if let blocks, let fear = blocks.firstIndex(where: { $0.mode == .fear }), consent == nil, fields["consent"] == nil {
            let line = blockLines.indices.contains(fear) ? blockLines[fear] : root.line
            problem(line, "block '\(blocks[fear].name)' is Fear, which plays an aversive sound after a large error: add a \"consent\" text to the protocol that the participant accepts before it, or change the block's mode")
        }
        if let blocks, let schedule {
            let total = blocks.reduce(0) { $0 + $1.sessions }
            let capacity = schedule.days * schedule.sessionsPerDay
            if total != capacity {
                problem(scheduleLine, "the blocks hold \(total) session\(total == 1 ? "" : "s") but the schedule has \(schedule.days) day\(schedule.days == 1 ? "" : "s") × \(schedule.sessionsPerDay) a day = \(capacity); make them equal (change a block's \"sessions\", \"days\" or \"sessions_per_day\")")
            }
        }
        guard problems.isEmpty, let name, let version, let schedule, let blocks else { return nil }
        return StudyProtocol(name: name, version: version, consent: consent, blocks: blocks, schedule: schedule, description: description)
    }

    var scheduleLine = 0
    var blockLines: [Int] = []

    mutating func schedule(_ value: LocatedJSON) -> StudyProtocol.Schedule? {
        scheduleLine = value.line
        guard case .object(let members) = value.value else {
            problem(value.line, "\"schedule\" is \(value.kindName); write it as an object, { \"sessions_per_day\": 2, \"days\": 14, \"minimum_gap_minutes\": 120 }")
            return nil
        }
        let fields = self.fields(members, allowed: Self.scheduleKeys, in: "the schedule", line: value.line)
        let perDay = required(fields, "sessions_per_day", in: "the schedule", line: value.line, example: "2").flatMap {
            integer($0, what: "sessions_per_day", range: StudyLimits.sessionsPerDay, fix: "sessions a day")
        }
        let days = required(fields, "days", in: "the schedule", line: value.line, example: "14").flatMap {
            integer($0, what: "days", range: StudyLimits.days, fix: "the days the study runs")
        }
        var gap: Int? = 0
        if let field = fields["minimum_gap_minutes"] {
            gap = integer(field, what: "minimum_gap_minutes", range: StudyLimits.minimumGapMinutes, fix: "minutes between two sessions, up to a day")
        }
        guard let perDay, let days, let gap else { return nil }
        if perDay > 1, (perDay - 1) * gap >= 1_440 {
            problem(fields["minimum_gap_minutes"]?.line ?? value.line,
                    "\(perDay) sessions a day at least \(gap) minutes apart do not fit in a day; lower \"minimum_gap_minutes\" below \(1_440 / (perDay - 1) + (1_440 % (perDay - 1) == 0 ? 0 : 1)) or \"sessions_per_day\"")
            return nil
        }
        return StudyProtocol.Schedule(sessionsPerDay: perDay, days: days, minimumGapMinutes: gap)
    }

    mutating func blocks(_ value: LocatedJSON) -> [StudyProtocol.Block]? {
        guard case .array(let items) = value.value else {
            problem(value.line, "\"blocks\" is \(value.kindName); write it as a list, [ { … }, { … } ]")
            return nil
        }
        guard StudyLimits.blocks.contains(items.count) else {
            problem(value.line, "\"blocks\" has \(items.count) blocks; a protocol has \(StudyLimits.blocks.lowerBound) to \(StudyLimits.blocks.upperBound)")
            return nil
        }
        blockLines = items.map(\.line)
        var blocks: [StudyProtocol.Block] = []
        var names: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            guard let block = self.block(item, index: index) else { continue }
            if let earlier = names[block.name] {
                problem(item.line, "block name '\(block.name)' is used twice (also line \(earlier)); give each block its own name")
                continue
            }
            names[block.name] = item.line
            blocks.append(block)
        }
        return blocks.count == items.count ? blocks : nil
    }

    mutating func block(_ value: LocatedJSON, index: Int) -> StudyProtocol.Block? {
        let label = "block \(index + 1)"
        guard case .object(let members) = value.value else {
            problem(value.line, "\(label) is \(value.kindName); write each block as an object, { \"name\": …, \"mode\": …, \"interval\": … }")
            return nil
        }
        let fields = self.fields(members, allowed: Self.blockKeys, in: label, line: value.line)
        let before = problems.count
        let name = required(fields, "name", in: label, line: value.line, example: "\"baseline\"").flatMap { identifier($0, what: "name") }
        var condition: String?
        if let field = fields["condition"] { condition = self.label(field, what: "condition") }
        let mode = required(fields, "mode", in: label, line: value.line, example: "\"challenge\"").flatMap { self.mode($0) }

        var intervals: [TrainingInterval]?
        switch (fields["interval"], fields["intervals"]) {
        case (nil, nil):
            problem(value.line, "\(label) has no interval; add \"interval\": \"30s\" (one) or \"intervals\": [\"10s\", \"30s\"] (several)")
        case (let one?, let several?):
            problem(max(one.line, several.line), "\(label) has both \"interval\" and \"intervals\"; keep one")
        case (let one?, nil):
            intervals = interval(one).map { [$0] }
        case (nil, let several?):
            intervals = self.intervals(several)
        }
        var order = StudyProtocol.IntervalOrder.fixed
        if let field = fields["order"] {
            if let chosen = choice(field, what: "order", StudyProtocol.IntervalOrder.self) {
                order = chosen
                if fields["intervals"] == nil {
                    problem(field.line, "\"order\" needs a list of \"intervals\"; with one \"interval\" remove \"order\"")
                }
            }
        }
        var sessions = intervals?.count ?? 1
        if let field = fields["sessions"] {
            sessions = integer(field, what: "sessions", range: StudyLimits.sessionsPerBlock, fix: "the block's sessions") ?? sessions
        }
        var count: Int?
        var fearThreshold = SessionConfiguration.defaultFearThreshold
        var feedback = FeedbackPolicy.shown
        var reveal = false
        if let mode {
            let countKey = mode.usesAttempts ? "attempts" : "repetitions"
            let otherKey = mode.usesAttempts ? "repetitions" : "attempts"
            if let wrong = fields[otherKey] {
                problem(wrong.line, "\(mode.rawValue) counts \(countKey), not \(otherKey); write \"\(countKey)\"")
            }
            if let field = fields[countKey] {
                count = integer(field, what: countKey, range: SessionConfiguration.countRange, fix: "\(countKey) per session")
            } else {
                count = mode.usesAttempts ? SessionConfiguration.defaultAttemptCount : SessionConfiguration.defaultRepetitionCount
            }
            if let field = fields["fear_threshold"] {
                if mode != .fear {
                    problem(field.line, "\"fear_threshold\" applies to Fear blocks only; remove it from this \(mode.rawValue) block")
                } else if let threshold = fraction(field) {
                    fearThreshold = threshold
                }
            }
            var feedbackRefused = false
            if let field = fields["feedback"] {
                if let chosen = choice(field, what: "feedback", FeedbackPolicy.self) {
                    if chosen == .withheld, !mode.usesAttempts {
                        problem(field.line, "\(mode.rawValue) has no presses to give feedback on; remove \"feedback\" from this block")
                        feedbackRefused = true
                    } else {
                        feedback = chosen
                    }
                } else {
                    feedbackRefused = true
                }
            }
            reveal = feedback == .withheld
            if let field = fields["reveal_at_block_end"] {
                if feedback != .withheld {
                    if !feedbackRefused {
                        problem(field.line, "\"reveal_at_block_end\" applies when \"feedback\" is \"withheld\"; remove it, or withhold feedback")
                    }
                } else if case .bool(let flag) = field.value {
                    reveal = flag
                } else {
                    problem(field.line, "\"reveal_at_block_end\" is \(field.kindName); write true (show the block's results when it ends) or false (never on the device)")
                }
            }
        }
        guard problems.count == before, let name, let mode, let intervals, let count else { return nil }
        return StudyProtocol.Block(name: name, condition: condition ?? name, mode: mode, sessions: sessions, intervals: intervals,
                                   order: order, count: count, fearThreshold: fearThreshold, feedback: feedback, revealAtBlockEnd: reveal)
    }

    // MARK: Fields

    /// An object's members by key; unknown keys are problems that name the nearest known key.
    mutating func fields(_ members: [LocatedJSON.Member], allowed: [String], in place: String, line: Int) -> [String: LocatedJSON] {
        var result: [String: LocatedJSON] = [:]
        for member in members {
            guard allowed.contains(member.key) else {
                let key = TerminalSafeText.sanitized(member.key, keepNewlines: false).prefix(40)
                if let near = Self.nearest(member.key, in: allowed) {
                    problem(member.line, "\(place) has no key \"\(key)\"; did you mean \"\(near)\"?")
                } else {
                    problem(member.line, "\(place) has no key \"\(key)\"; its keys are \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))")
                }
                continue
            }
            result[member.key] = member.value
        }
        return result
    }

    mutating func required(_ fields: [String: LocatedJSON], _ key: String, in place: String, line: Int, example: String) -> LocatedJSON? {
        if let value = fields[key] { return value }
        problem(line, "\(place) has no \"\(key)\"; add one, e.g. \"\(key)\": \(example)")
        return nil
    }

    mutating func identifier(_ value: LocatedJSON, what: String) -> String? {
        guard case .string(let text) = value.value else {
            problem(value.line, "\"\(what)\" is \(value.kindName); write it as text in double quotes, e.g. \"sleep-2026\"")
            return nil
        }
        if let message = StudyNames.problem(text, what: "\"\(what)\"") { problem(value.line, message); return nil }
        return text
    }

    mutating func label(_ value: LocatedJSON, what: String) -> String? {
        guard case .string(let text) = value.value else {
            problem(value.line, "\"\(what)\" is \(value.kindName); write it as text in double quotes, e.g. \"feedback-off\"")
            return nil
        }
        if let message = StudyNames.labelProblem(text, what: "\"\(what)\"") { problem(value.line, message); return nil }
        return text
    }

    mutating func text(_ value: LocatedJSON, what: String, limit: Int) -> String? {
        guard case .string(let text) = value.value else {
            problem(value.line, "\"\(what)\" is \(value.kindName); write it as text in double quotes")
            return nil
        }
        let trimmed = text.trimmingWhitespace
        guard !trimmed.isEmpty else { problem(value.line, "\"\(what)\" is empty; write the text, or remove the key"); return nil }
        guard text.count <= limit else { problem(value.line, "\"\(what)\" has \(text.count) characters; shorten it to \(limit) at most"); return nil }
        // The one text rule notes and labels use (`TerminalSafeText.isUnsafe`), line breaks allowed: a
        // page, a terminal or an export shows this text, and a text-direction mark (U+202E) or a
        // control character would reorder or hide what the participant reads.
        if let unsafe = text.unicodeScalars.first(where: { $0 != "\n" && TerminalSafeText.isUnsafe($0) }) {
            problem(value.line, "\"\(what)\" holds \(SessionNote.name(of: unsafe)); write it with ordinary characters (line breaks are allowed)")
            return nil
        }
        return text
    }

    mutating func integer(_ value: LocatedJSON, what: String, range: ClosedRange<Int>, fix: String) -> Int? {
        guard case .number(let text) = value.value, let number = Int(text) else {
            problem(value.line, "\"\(what)\" is \(value.kindName == "a number" ? "not a whole number" : value.kindName); write a whole number from \(range.lowerBound) to \(range.upperBound) (\(fix))")
            return nil
        }
        guard range.contains(number) else {
            problem(value.line, "\"\(what)\" is \(number); use \(range.lowerBound) to \(range.upperBound) (\(fix))")
            return nil
        }
        return number
    }

    mutating func fraction(_ value: LocatedJSON) -> Double? {
        guard case .number(let text) = value.value, let number = Double(text), number > 0, number <= 10 else {
            problem(value.line, "\"fear_threshold\" must be a fraction above 0 and at most 10, e.g. 0.10 for 10 %")
            return nil
        }
        return number
    }

    mutating func choice<Choice: RawRepresentable & CaseIterable>(_ value: LocatedJSON, what: String, _ type: Choice.Type) -> Choice?
    where Choice.RawValue == String {
        let options = Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        guard case .string(let text) = value.value, let chosen = Choice(rawValue: text) else {
            problem(value.line, "\"\(what)\" must be \(options)")
            return nil
        }
        return chosen
    }

    mutating func mode(_ value: LocatedJSON) -> SessionMode? {
        let options = SessionMode.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        guard case .string(let text) = value.value, let mode = SessionMode(rawValue: text) else {
            problem(value.line, "\"mode\" must be one of \(options)")
            return nil
        }
        return mode
    }

    /// One interval: text as the CLI takes it (`"30s"`, `"5m"`, `"1m30s"`) or whole seconds.
    mutating func interval(_ value: LocatedJSON) -> TrainingInterval? {
        let text: String
        switch value.value {
        case .string(let written): text = written
        case .number(let written): text = written
        default:
            problem(value.line, "an interval is \(value.kindName); write it as text such as \"30s\", \"5m\" or \"1m30s\"")
            return nil
        }
        do { return try TrainingInterval.parse(text) } catch {
            problem(value.line, error.description)
            return nil
        }
    }

    mutating func intervals(_ value: LocatedJSON) -> [TrainingInterval]? {
        guard case .array(let items) = value.value else {
            problem(value.line, "\"intervals\" is \(value.kindName); write a list such as [\"10s\", \"30s\"], or use \"interval\" for one")
            return nil
        }
        guard StudyLimits.intervalsPerBlock.contains(items.count) else {
            problem(value.line, "\"intervals\" lists \(items.count); a block lists \(StudyLimits.intervalsPerBlock.lowerBound) to \(StudyLimits.intervalsPerBlock.upperBound)")
            return nil
        }
        var result: [TrainingInterval] = []
        for item in items {
            guard let interval = interval(item) else { continue }
            if result.contains(interval) {
                problem(item.line, "\(interval) is listed twice in \"intervals\"; list each interval once (\"sessions\" repeats the list)")
                continue
            }
            result.append(interval)
        }
        return result.count == items.count ? result : nil
    }

    /// The allowed key within two edits of `key`, if one is.
    static func nearest(_ key: String, in allowed: [String]) -> String? {
        func distance(_ a: [Character], _ b: [Character]) -> Int {
            var previous = Array(0...b.count)
            for (i, x) in a.enumerated() {
                var current = [i + 1]
                for (j, y) in b.enumerated() {
                    current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
                }
                previous = current
            }
            return previous[b.count]
        }
        let lowered = Array(key.lowercased())
        let scored = allowed.map { ($0, distance(lowered, Array($0))) }.filter { $0.1 <= 2 }
        return scored.min { $0.1 < $1.1 }?.0
    }
}
