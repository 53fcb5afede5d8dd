import ChronoCore
import Testing

/// The one set of rules a finished session meets wherever it comes from (store, import, collector).
@Suite("Session validation")
struct SessionValidationTests {
    static let id = "9FC018DF-3D50-4885-A909-0084F2EA4E5B"
    static let anchor = WallClockAnchor(unixNanoseconds: 1_795_000_000_000_000_000, monotonic: MonotonicInstant(nanoseconds: 5_000_000_000),
                                        utcOffsetSeconds: 3600)
    static let second: Int64 = 1_000_000_000

    /// A two-attempt 10 s Challenge as the engine records it.
    static func challenge() throws -> SessionFinishRecord {
        let configuration = try SessionConfiguration(mode: .challenge, interval: TrainingInterval(seconds: 10), plannedCount: 2)
        let start = anchor.monotonic
        let attempts = [
            AttemptMeasurement(index: 1, target: configuration.interval, startMark: start + .seconds(1), tapMark: start + .seconds(12)),
            AttemptMeasurement(index: 2, target: configuration.interval, startMark: start + .seconds(14), tapMark: start + .seconds(23)),
        ]
        let outcome = SessionOutcome(status: .completed, configuration: configuration, startedAt: start, endedAt: start + .seconds(23),
                                     attempts: attempts, boundaries: [], fearSoundEffective: false, reason: nil)
        return SessionFinishRecord(sessionID: id, outcome: outcome, anchor: anchor, board: "raspberry-pi-4b")
    }

    /// A three-repetition 10 s Passive session, each boundary fired 0.2 ms after it was due.
    static func passive() throws -> SessionFinishRecord {
        let configuration = try SessionConfiguration(mode: .passive, interval: TrainingInterval(seconds: 10), plannedCount: 3)
        let start = anchor.monotonic
        let boundaries = (1...3).map { PassiveBoundary(index: $0, due: start + .seconds(Int64(10 * $0))) }
        let outcome = SessionOutcome(status: .completed, configuration: configuration, startedAt: start, endedAt: start + .seconds(30),
                                     attempts: [], boundaries: boundaries, fearSoundEffective: false, reason: nil)
        return SessionFinishRecord(sessionID: id, outcome: outcome, anchor: anchor, board: "desktop",
                                   boundariesFired: boundaries.map { $0.due + TimeSpan(nanoseconds: 200_000) })
    }

    static func violation(_ record: SessionFinishRecord) -> SessionRuleViolation? {
        do { _ = try SessionValidation.validated(record); return nil } catch { return error }
    }

    @Test("sessions the engine records pass, and a lower-case id comes back canonical")
    func recordedSessionsPass() throws {
        #expect(try SessionValidation.validated(Self.challenge()) == Self.challenge())
        #expect(try SessionValidation.validated(Self.passive()) == Self.passive())
        var lower = try Self.challenge()
        lower.sessionID = Self.id.lowercased()
        #expect(try SessionValidation.validated(lower).sessionID == Self.id)
    }

    @Test("ids that are not canonical UUIDs are refused",
          arguments: ["../../etc/passwd", "", "S1", "9FC018DF3D504885A9090084F2EA4E5B", "9FC018DF-3D50-4885-A909-0084F2EA4E5G",
                      "９FC018DF-3D50-4885-A909-0084F2EA4E5B", " 9FC018DF-3D50-4885-A909-0084F2EA4E5B"])
    func badIDs(id: String) throws {
        var record = try Self.challenge()
        record.sessionID = id
        #expect(Self.violation(record)?.rule == .id)
    }

    @Test("times outside TimeLimits are refused: anchors in 1930 or 2200, a 200-year session, marks past Int64's comfort")
    func times() throws {
        func anchored(_ unix: Int64) throws -> SessionFinishRecord {
            var record = try Self.challenge()
            record.anchor.unixNanoseconds = unix
            return record
        }
        #expect(Self.violation(try anchored(-1_262_304_000 * Self.second))?.rule == .time)  // 1930
        #expect(Self.violation(try anchored(7_258_118_400 * Self.second))?.rule == .time)   // 2200
        var long = try Self.challenge()
        long.outcome.endedAt = long.outcome.startedAt + TimeSpan(nanoseconds: 200 * 31_557_600 * Self.second)
        #expect(Self.violation(long)?.rule == .time)
        var minimum = try Self.challenge()
        minimum.anchor.monotonic = MonotonicInstant(nanoseconds: .min)
        #expect(Self.violation(minimum)?.detail == "the anchor's monotonic mark (-9223372036854775808 ns) is outside 0 to 3155760000000000000 ns")
        for seconds in [19 * 3600, -19 * 3600, Int.min, Int.max] {
            var offset = try Self.challenge()
            offset.anchor.utcOffsetSeconds = seconds
            #expect(Self.violation(offset)?.rule == .time, "\(seconds)")
        }
    }

    @Test("order: a tap before its start, an end before the start, a boundary fired before it was due or not on the schedule")
    func order() throws {
        var tapFirst = try Self.challenge()
        tapFirst.outcome.attempts[0] = AttemptMeasurement(index: 1, target: tapFirst.outcome.configuration.interval,
                                                         startMark: tapFirst.outcome.startedAt + .seconds(5),
                                                         tapMark: tapFirst.outcome.startedAt + .seconds(4))
        #expect(Self.violation(tapFirst)?.detail == "attempt 1's tap comes before its start")
        var endFirst = try Self.challenge()
        endFirst.outcome.endedAt = endFirst.outcome.startedAt - .seconds(1)
        #expect(Self.violation(endFirst)?.detail == "the session ends before it starts")
        var early = try Self.passive()
        early.boundariesFired[1] = early.outcome.boundaries[1].due - .milliseconds(1)
        #expect(Self.violation(early)?.detail == "boundary 2 fired before it was due")
        var shifted = try Self.passive()
        shifted.outcome.boundaries[2].due = shifted.outcome.boundaries[2].due - .milliseconds(1)
        #expect(Self.violation(shifted)?.rule == .order)
    }

    @Test("shape: more attempts than planned, negative or duplicate indexes, a Passive session with attempts")
    func shape() throws {
        var more = try Self.challenge()
        let interval = more.outcome.configuration.interval
        more.outcome.attempts.append(AttemptMeasurement(index: 3, target: interval, startMark: more.outcome.endedAt, tapMark: more.outcome.endedAt))
        #expect(Self.violation(more)?.detail == "3 attempts, more than the 2 planned")
        var negative = try Self.challenge()
        negative.outcome.attempts[0] = AttemptMeasurement(index: -1, target: interval, startMark: negative.outcome.attempts[0].startMark,
                                                          tapMark: negative.outcome.attempts[0].tapMark)
        #expect(Self.violation(negative)?.rule == .shape)
        var duplicate = try Self.passive()
        duplicate.outcome.boundaries[1].index = 1
        #expect(Self.violation(duplicate)?.detail == "boundary 2 has index 1; boundaries are numbered 1, 2, … in order")
        var passiveWithAttempts = try Self.passive()
        passiveWithAttempts.outcome.attempts = try Self.challenge().outcome.attempts
        #expect(Self.violation(passiveWithAttempts)?.detail == "a passive session has attempts")
    }

    @Test("text: a 10 kB board name or one with escape sequences is refused")
    func text() throws {
        var long = try Self.challenge()
        long.board = String(repeating: "b", count: 10_000)
        #expect(Self.violation(long)?.rule == .text)
        var escape = try Self.challenge()
        escape.board = "pi\u{1B}[2J"
        #expect(Self.violation(escape)?.detail == "the board name holds a control character or a text-direction mark")
        // The rule is a note's (`TerminalSafeText.isUnsafe`): a right-to-left override reorders what is shown.
        var bidi = try Self.challenge()
        bidi.board = "pi\u{202E}kcab"
        #expect(Self.violation(bidi)?.detail == "the board name holds a control character or a text-direction mark")
        var separator = try Self.challenge()
        separator.board = "pi\u{2028}zero"
        #expect(Self.violation(separator)?.rule == .text)
    }

    @Test("a reason holds no control character or text-direction mark; the engine keeps every reason in that form")
    func reasonCharacters() throws {
        var escape = try Self.challenge()
        escape.outcome.reason = "Stopped\u{1B}[2J"
        #expect(Self.violation(escape)?.detail == "the reason holds a control character or a text-direction mark")
        var multiLine = try Self.challenge()
        multiLine.outcome.reason = "the loop failed:\nthe disk is full"
        #expect(Self.violation(multiLine)?.rule == .text)
        #expect(SessionValidation.keepableReason("the loop failed:\nthe disk is full") == "the loop failed:\\nthe disk is full")
        let long = SessionValidation.keepableReason(String(repeating: "r", count: 2_000))
        #expect(long.count == SessionValidation.maximumReasonLength && long.hasSuffix("r…"))
        multiLine.outcome.reason = SessionValidation.keepableReason("the loop failed:\nthe disk is full")
        #expect(Self.violation(multiLine) == nil)
    }

    @Test("one reading of target_interval_ms: a product interval when whole seconds in its range, else a test-mode one, nothing outside 1…7,259,000 ms")
    func intervalFromMilliseconds() {
        #expect(SessionValidation.interval(milliseconds: 300_000) == .builtInPreset)
        #expect(SessionValidation.interval(milliseconds: 300_000)?.isProductInterval == true)
        #expect(SessionValidation.interval(milliseconds: 5_000) == .testOnly(milliseconds: 5_000))
        #expect(SessionValidation.interval(milliseconds: 5_000)?.isProductInterval == false)
        #expect(SessionValidation.interval(milliseconds: 150) == .testOnly(milliseconds: 150))
        #expect(SessionValidation.interval(milliseconds: 7_259_000)?.isProductInterval == true)
        #expect(SessionValidation.interval(milliseconds: 7_259_001) == nil)
        #expect(SessionValidation.interval(milliseconds: 0) == nil)
        #expect(SessionValidation.interval(milliseconds: .max) == nil)
    }

    @Test("an interval pattern has 1 to 5 pulses, as the pattern book hands out")
    func patternLength() throws {
        let longest = try #require(IntervalPatternBook.candidates.map(\.elements.count).max())
        #expect(longest == IntervalPatternBook.maximumPulses)
        let six = try #require(HapticPattern(notation: "S S S S S S"))
        #expect(throws: ConfigurationError.notAnIntervalPattern("S S S S S S")) {
            try SessionConfiguration(mode: .challenge, interval: .builtInPreset, intervalPattern: six)
        }
        #expect(ConfigurationError.notAnIntervalPattern("S S S S S S").description
                == "'S S S S S S' is not an interval pattern: use 1 to 5 short (S) and long (L) pulses only.")
    }

    @Test("the message names the session and the rule, and shows a hostile id as plain text")
    func message() throws {
        var record = try Self.challenge()
        record.sessionID = "\u{1B}[2J" + String(repeating: "x", count: 100)
        let text = Self.violation(record)?.description ?? ""
        #expect(text.hasPrefix("session ?[2Jxxx"))
        #expect(text.hasSuffix("breaks rule session_id: the id is not a UUID (8-4-4-4-12 ASCII hexadecimal digits)"))
    }
}

@Suite("Bounded days and UUIDs")
struct BoundedInputTests {
    @Test("days from outside parse only inside 1970-01-01…2099-12-31")
    func days() {
        #expect(CalendarDay(parsing: "2026-11-23")?.daysSinceEpoch == 20_780)
        #expect(CalendarDay(parsing: "1970-01-01")?.daysSinceEpoch == 0)
        #expect(CalendarDay(parsing: "2099-12-31")?.description == "2099-12-31")
        for text in ["2100-01-01", "2262-04-13", "9999-12-31", "1969-12-31", "2026-02-30", "2026-1-01", "２026-11-23", "2026-11-23T00"] {
            #expect(CalendarDay(parsing: text) == nil, "\(text)")
        }
        #expect(CalendarDay(parsing: "2099-12-31")!.unixNanoseconds(daysFromThis: 2) == 4_102_531_200_000_000_000)
    }

    @Test("UUIDs: either case in, upper case out; look-alikes refused")
    func uuids() {
        #expect(CanonicalUUID("9fc018df-3d50-4885-a909-0084f2ea4e5b")?.text == "9FC018DF-3D50-4885-A909-0084F2EA4E5B")
        #expect(CanonicalUUID("9FC018DF-3D50-4885-A909-0084F2EA4E5B") == CanonicalUUID("9fc018df-3d50-4885-a909-0084f2ea4e5b"))
        #expect(CanonicalUUID("９fc018df-3d50-4885-a909-0084f2ea4e5b") == nil)
        #expect(CanonicalUUID("9fc018df-3d50-4885-a909_0084f2ea4e5b") == nil)
    }
}
