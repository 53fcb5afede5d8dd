/// The rules every finished session satisfies, wherever it comes from: the store before it saves one
/// and when it reads one back, `import` on a fallback file, a collector on a sync batch. One validator,
/// so a session the device keeps is always one a collector accepts (an outbox never jams on a session
/// that one end calls valid and the other damage), and forged or damaged input is refused with the
/// rule it breaks instead of being stored or trapping on arithmetic later.
///
/// The rules are what the engine itself guarantees (SPEC's session rules), with every time inside
/// `TimeLimits` so that any later sum (anchor + mark + interval) fits in `Int64`.
public enum SessionValidation {
    /// The longest board name accepted (the longest shipped is 20 characters).
    public static let maximumBoardLength = 64
    /// The longest `reason` text accepted.
    public static let maximumReasonLength = 500
    /// A session's target interval in milliseconds: from 1 ms (a test-mode interval) to the product's
    /// maximum, 120m 59s (SPEC §2). Every format's interval field is checked against this one range.
    public static let intervalMilliseconds: ClosedRange<Int64> = 1...Int64(TrainingInterval.maximumSeconds) * 1000
    /// A session's own timing settings in milliseconds (feedback, abort window, debounce, long press):
    /// up to a minute, the most any entry point lets a session run with (the flags'
    /// `TimeLimits.maximumTimingMilliseconds`; settings and board files allow less), so every session
    /// a device records passes, on import and on a collector alike.
    public static let timingMilliseconds: ClosedRange<Int64> = 0...TimeLimits.maximumTimingMilliseconds

    /// The problem with a timing setting named `name` of `milliseconds` read from outside, or nil: a
    /// decoder asks before it builds the configuration (and so before any arithmetic on the value).
    public static func timingProblem(_ name: String, milliseconds: Int64) -> String? {
        timingMilliseconds.contains(milliseconds) ? nil
            : "\(name) \(milliseconds) is outside \(timingMilliseconds.lowerBound)…\(timingMilliseconds.upperBound) ms"
    }

    /// The interval a session's `target_interval_ms` names, or nil outside `intervalMilliseconds`: the
    /// product interval when it is whole seconds in the product's range, else a test-mode one. Every
    /// format's reader and the store's read turn milliseconds into an interval here, so one value means
    /// one interval everywhere; whether a test-mode interval is welcome is the reader's rule.
    public static func interval(milliseconds: Int64) -> TrainingInterval? {
        guard intervalMilliseconds.contains(milliseconds) else { return nil }
        if milliseconds % 1000 == 0, let whole = try? TrainingInterval(seconds: Int(milliseconds / 1000)) { return whole }
        return .testOnly(milliseconds: milliseconds)
    }

    /// `reason` as a session keeps it: characters `TerminalSafeText` escapes shown as escapes (an error's
    /// description can hold a newline), and cut to `maximumReasonLength`. The engine keeps every reason
    /// through this, so each one it records passes `validated`; a reason read from outside is checked,
    /// not repaired.
    public static func keepableReason(_ reason: String) -> String {
        let safe = TerminalSafeText.sanitized(reason, keepNewlines: false)
        return safe.count <= maximumReasonLength ? safe : String(safe.prefix(maximumReasonLength - 1)) + "…"
    }

    /// The problem with a target interval of `milliseconds` read from outside, or nil.
    public static func intervalProblem(_ name: String, milliseconds: Int64) -> String? {
        intervalMilliseconds.contains(milliseconds) ? nil
            : "\(name) \(milliseconds) is outside \(intervalMilliseconds.lowerBound)…\(intervalMilliseconds.upperBound) ms"
    }

    /// `record` with its id in canonical form, or the first rule it breaks.
    public static func validated(_ record: SessionFinishRecord) throws(SessionRuleViolation) -> SessionFinishRecord {
        try validated(record, firings: record.boundariesFired.map { Optional($0) })
    }

    /// The same, for a session whose boundaries' firing instants are known one by one (a stored or
    /// synced session: nil where a firing was not measured); `record.boundariesFired` is not read.
    public static func validated(_ record: SessionFinishRecord, firings: [MonotonicInstant?]) throws(SessionRuleViolation) -> SessionFinishRecord {
        let id = record.sessionID
        func broken(_ rule: SessionRule, _ detail: String) -> SessionRuleViolation {
            SessionRuleViolation(sessionID: String(id.prefix(64)), rule: rule, detail: detail)
        }
        guard let canonical = CanonicalUUID(id) else { throw broken(.id, "the id is not a UUID (8-4-4-4-12 ASCII hexadecimal digits)") }
        try checkBoard(record.board, broken)
        if let reason = record.outcome.reason, let problem = reasonProblem("the reason", reason) { throw broken(.text, problem) }
        try checkConfiguration(record.outcome.configuration, broken)
        try checkTimes(record, firings: firings, broken)
        try checkAttempts(record.outcome, broken)
        try checkBoundaries(record, firings: firings, broken)
        var checked = record
        checked.sessionID = canonical.text
        return checked
    }

    private static func checkBoard(_ board: String, _ broken: (SessionRule, String) -> SessionRuleViolation) throws(SessionRuleViolation) {
        if let problem = boardProblem(board) { throw broken(.text, problem) }
    }

    /// Why `board` cannot name a session's board (too long, empty, a character `TerminalSafeText`
    /// escapes, as a note or a study label may not hold), or nil. Also what a board file's name is
    /// checked against when it is loaded, and a device's board when it enrols, so a device that runs can sync.
    public static func boardProblem(_ board: String) -> String? {
        guard !board.isEmpty, board.count <= maximumBoardLength else {
            return "the board name is \(board.count) characters long; it must be 1 to \(maximumBoardLength)"
        }
        guard !board.unicodeScalars.contains(where: TerminalSafeText.isUnsafe) else {
            return "the board name holds a control character or a text-direction mark"
        }
        return nil
    }

    /// Why a health-skip reason (the device's sentence for why a session has no health record) cannot
    /// be kept, or nil: the rule of every reason (`reasonProblem`).
    public static func skipReasonProblem(_ reason: String) -> String? {
        reasonProblem("health_skip_reason", reason)
    }

    /// Why a sentence a session keeps (its reason, its health-skip reason) named `name` cannot be kept,
    /// or nil: at most `maximumReasonLength` characters, none that `TerminalSafeText` escapes.
    static func reasonProblem(_ name: String, _ text: String) -> String? {
        guard text.count <= maximumReasonLength else { return "\(name) is \(text.count) characters long; at most \(maximumReasonLength)" }
        guard !text.unicodeScalars.contains(where: TerminalSafeText.isUnsafe) else {
            return "\(name) holds a control character or a text-direction mark"
        }
        return nil
    }

    private static func checkConfiguration(_ configuration: SessionConfiguration, _ broken: (SessionRule, String) -> SessionRuleViolation) throws(SessionRuleViolation) {
        if let problem = intervalProblem("the target interval", milliseconds: configuration.interval.span.nanoseconds / 1_000_000) {
            throw broken(.time, problem)
        }
        let timings: [(String, TimeSpan)] = [
            ("feedback_ms", configuration.timing.feedbackDuration), ("abort_window_ms", configuration.timing.abortConfirmWindow),
            ("debounce_ms", configuration.gestures.debounce), ("long_press_ms", configuration.gestures.longPress),
        ]
        for (name, span) in timings {
            if let problem = timingProblem(name, milliseconds: span.milliseconds) { throw broken(.time, problem) }
        }
    }

    private static func checkTimes(_ record: SessionFinishRecord, firings: [MonotonicInstant?], _ broken: (SessionRule, String) -> SessionRuleViolation) throws(SessionRuleViolation) {
        let anchor = record.anchor, outcome = record.outcome
        guard TimeLimits.isAcceptedWallClock(unixNanoseconds: anchor.unixNanoseconds) else {
            throw broken(.time, "the anchor's wall clock \(anchor.unixNanoseconds) ns is outside \(TimeLimits.wallClockRangeText)")
        }
        guard TimeLimits.isAcceptedUTCOffset(anchor.utcOffsetSeconds) else {
            throw broken(.time, "the UTC offset \(anchor.utcOffsetSeconds) s is beyond ±\(TimeLimits.maximumUTCOffsetSeconds / 3600) h")
        }
        // Built in typed steps: one long expression takes the release compiler (Swift 6.2, package-pi) too
        // long to type-check.
        typealias NamedMark = (String, MonotonicInstant)
        var marks: [NamedMark] = [("the anchor's monotonic mark", anchor.monotonic), ("the start", outcome.startedAt), ("the end", outcome.endedAt)]
        for attempt in outcome.attempts {
            marks.append(("attempt \(attempt.index)'s start", attempt.startMark))
            marks.append(("attempt \(attempt.index)'s tap", attempt.tapMark))
        }
        for attempt in outcome.attempts {
            if let mark = attempt.presentedStart { marks.append(("attempt \(attempt.index)'s presented start", mark)) }
            if let mark = attempt.presentedEnd { marks.append(("attempt \(attempt.index)'s presented end", mark)) }
        }
        for boundary in outcome.boundaries { marks.append(("boundary \(boundary.index)'s due time", boundary.due)) }
        for (position, fired) in firings.enumerated() {
            if let fired { marks.append(("boundary \(position + 1)'s firing", fired)) }
        }
        for (name, mark) in marks where !TimeLimits.isAcceptedMonotonic(nanoseconds: mark.nanoseconds) {
            throw broken(.time, "\(name) (\(mark.nanoseconds) ns) is outside 0 to \(TimeLimits.maximumMonotonicNanoseconds) ns")
        }
        guard outcome.endedAt >= outcome.startedAt else { throw broken(.order, "the session ends before it starts") }
        if let late = outcome.timingLateness, !(late.nanoseconds > 0 && TimeLimits.isAcceptedMonotonic(nanoseconds: late.nanoseconds)) {
            throw broken(.time, "the timing flag timing_late_ns (\(late.nanoseconds)) is outside 1 to \(TimeLimits.maximumMonotonicNanoseconds) ns")
        }
        for (name, mark) in [("starts", outcome.startedAt), ("ends", outcome.endedAt)]
        where anchor.checkedUnixNanoseconds(at: mark) == nil {
            throw broken(.time, "the session \(name) outside \(TimeLimits.wallClockRangeText) by its anchor")
        }
    }

    private static func checkAttempts(_ outcome: SessionOutcome, _ broken: (SessionRule, String) -> SessionRuleViolation) throws(SessionRuleViolation) {
        let configuration = outcome.configuration
        guard configuration.mode.usesAttempts || outcome.attempts.isEmpty else {
            throw broken(.shape, "a passive session has attempts")
        }
        guard outcome.attempts.count <= configuration.plannedCount else {
            throw broken(.shape, "\(outcome.attempts.count) attempts, more than the \(configuration.plannedCount) planned")
        }
        if configuration.mode.usesAttempts, outcome.status == .completed, outcome.attempts.count != configuration.plannedCount {
            throw broken(.shape, "a completed \(configuration.mode.rawValue) session has \(outcome.attempts.count) of its \(configuration.plannedCount) attempts")
        }
        var previousTap = outcome.startedAt
        for (position, attempt) in outcome.attempts.enumerated() {
            guard attempt.index == position + 1 else {
                throw broken(.shape, "attempt \(position + 1) has index \(attempt.index); attempts are numbered 1, 2, … in order")
            }
            guard attempt.target == configuration.interval else { throw broken(.shape, "attempt \(attempt.index) has another target than its session") }
            guard attempt.startMark >= previousTap else {
                throw broken(.order, "attempt \(attempt.index) starts before the session or before the previous attempt's tap")
            }
            guard attempt.tapMark >= attempt.startMark else { throw broken(.order, "attempt \(attempt.index)'s tap comes before its start") }
            guard attempt.tapMark <= outcome.endedAt else { throw broken(.order, "attempt \(attempt.index)'s tap comes after the session ended") }
            try checkPresentation(attempt, mode: configuration.mode, after: previousTap, endedAt: outcome.endedAt, broken)
            previousTap = attempt.tapMark
        }
    }

    /// Reproduction's presented interval: both marks or neither (a session from before they were kept),
    /// in order, after the previous attempt and within the session; no other mode has them.
    private static func checkPresentation(
        _ attempt: AttemptMeasurement, mode: SessionMode, after previousTap: MonotonicInstant, endedAt: MonotonicInstant,
        _ broken: (SessionRule, String) -> SessionRuleViolation
    ) throws(SessionRuleViolation) {
        switch (attempt.presentedStart, attempt.presentedEnd) {
        case (nil, nil):
            return
        case (let start?, let end?):
            guard mode == .reproduction else { throw broken(.shape, "a \(mode.rawValue) attempt has a presented interval; only reproduction presents one") }
            guard start <= end else { throw broken(.order, "attempt \(attempt.index)'s presented interval ends before it starts") }
            guard start >= previousTap else {
                throw broken(.order, "attempt \(attempt.index)'s presented interval starts before the session or before the previous attempt's tap")
            }
            guard end <= endedAt else { throw broken(.order, "attempt \(attempt.index)'s presented interval ends after the session ended") }
        default:
            throw broken(.shape, "attempt \(attempt.index) has one presented mark of two; give presented_start_mono_ns and presented_end_mono_ns together")
        }
    }

    private static func checkBoundaries(_ record: SessionFinishRecord, firings: [MonotonicInstant?], _ broken: (SessionRule, String) -> SessionRuleViolation) throws(SessionRuleViolation) {
        let outcome = record.outcome, configuration = outcome.configuration
        guard !configuration.mode.usesAttempts || (outcome.boundaries.isEmpty && firings.allSatisfy { $0 == nil }) else {
            throw broken(.shape, "a \(configuration.mode.rawValue) session has passive boundaries")
        }
        guard outcome.boundaries.count <= configuration.plannedCount else {
            throw broken(.shape, "\(outcome.boundaries.count) boundaries, more than the \(configuration.plannedCount) repetitions planned")
        }
        guard firings.count <= outcome.boundaries.count else {
            throw broken(.shape, "\(firings.count) boundary firings for \(outcome.boundaries.count) boundaries")
        }
        if !configuration.mode.usesAttempts, outcome.status == .completed, outcome.boundaries.isEmpty {
            throw broken(.shape, "a completed passive session has no boundary")
        }
        for (position, boundary) in outcome.boundaries.enumerated() {
            guard boundary.index == position + 1 else {
                throw broken(.shape, "boundary \(position + 1) has index \(boundary.index); boundaries are numbered 1, 2, … in order")
            }
            // Absolute deadlines: boundary k is due k intervals after the start, never later or earlier.
            let due = outcome.startedAt + configuration.interval.span * Int64(boundary.index)
            guard boundary.due == due else {
                throw broken(.order, "boundary \(boundary.index) is due at \(boundary.due.nanoseconds) ns, not \(boundary.index) intervals after the start (\(due.nanoseconds) ns)")
            }
            guard boundary.due <= outcome.endedAt else { throw broken(.order, "boundary \(boundary.index) is due after the session ended") }
            if position < firings.count, let fired = firings[position], fired < boundary.due {
                throw broken(.order, "boundary \(boundary.index) fired before it was due")
            }
        }
    }
}

/// The kinds of rule a session can break, each with a stable code for machines (the collector's 422,
/// `import`'s message).
public enum SessionRule: String, Sendable, Hashable {
    /// The id is not a canonical UUID.
    case id = "session_id"
    /// A time is outside `TimeLimits` (wall clock, monotonic marks, UTC offset).
    case time = "session_time"
    /// Times out of order: an end before a start, a tap before its attempt, a boundary before it was due.
    case order = "session_order"
    /// Attempts or boundaries that the session's mode and plan cannot have.
    case shape = "session_shape"
    /// A text field too long or holding control characters.
    case text = "session_text"
    /// A person's note that `SessionNote` refuses (too long, or a control character).
    case note = "session_note"
}

/// A session refused by `SessionValidation`: which session, which rule, and in words.
public struct SessionRuleViolation: Error, Hashable, Sendable, CustomStringConvertible {
    public var sessionID: String
    public var rule: SessionRule
    public var detail: String

    public init(sessionID: String, rule: SessionRule, detail: String) {
        self.sessionID = sessionID
        self.rule = rule
        self.detail = detail
    }

    public var description: String { "session \(Self.shown(id: sessionID)) breaks rule \(rule.rawValue): \(detail)" }

    /// An id from outside as a message shows it: printable ASCII only (a UUID never needs more; any
    /// other character becomes `?`), at most 64 characters. Used wherever a refused session is named.
    public static func shown(id: String) -> String {
        String(id.unicodeScalars.prefix(64).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
    }
}
