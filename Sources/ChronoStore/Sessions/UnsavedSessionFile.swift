import ChronoCore
import Foundation

/// The fallback file a finished session is kept in when the store cannot save it (a full disk, a
/// read-only card): its JSON form and the one decoder `chronoception import` uses. The decoder treats
/// the file as input from outside — every number range-checked, the session through the core's
/// `SessionValidation` — because a person may edit it, or be handed one. Kept in the store's module
/// (not the command line) so the fuzzer can reach it without the servers.
///
/// Format 2 holds the whole finished session (docs/STORE.md, "Fallback files"): format 1's fields, the
/// feedback policy, Reproduction's presented marks, the study tag, `results_withheld` and whether the
/// wall clock was synchronised, so an imported study session is stored, flagged and logged exactly as
/// the daemon would have saved it. Format 1 files are still read: they carry none of those (feedback
/// shown, no study tag, results not withheld).
public enum UnsavedSessionFile {
    /// The format's version, in the file as `chronoception_unsaved_session`.
    public static let formatVersion = 2

    public static func json(_ finish: SessionFinishRecord) -> JSONValue {
        let outcome = finish.outcome
        let configuration = outcome.configuration
        return .object([
            ("chronoception_unsaved_session", .int(formatVersion)),
            ("session_id", .string(finish.sessionID)),
            ("board", .string(finish.board)),
            ("anchor", .object([
                ("unix_ns", .int(finish.anchor.unixNanoseconds)),
                ("monotonic_ns", .int(finish.anchor.monotonic.nanoseconds)),
                ("utc_offset_seconds", .int(finish.anchor.utcOffsetSeconds)),
            ])),
            ("configuration", .object([
                ("mode", .string(configuration.mode.rawValue)),
                ("interval_ms", .int(configuration.interval.span.milliseconds)),
                ("planned_count", .int(configuration.plannedCount)),
                ("fear_threshold", .double(configuration.fearThreshold)),
                ("pattern", .string(configuration.intervalPattern.description)),
                ("feedback_ms", .int(configuration.timing.feedbackDuration.milliseconds)),
                ("abort_window_ms", .int(configuration.timing.abortConfirmWindow.milliseconds)),
                ("auto_start", .bool(configuration.timing.autoStartNextAttempt)),
                ("debounce_ms", .int(configuration.gestures.debounce.milliseconds)),
                ("long_press_ms", .int(configuration.gestures.longPress.milliseconds)),
                ("feedback", .string(configuration.feedback.rawValue)),
            ])),
            ("status", .string(outcome.status.rawValue)),
            ("started_ns", .int(outcome.startedAt.nanoseconds)),
            ("ended_ns", .int(outcome.endedAt.nanoseconds)),
            ("attempts", .array(outcome.attempts.map(attemptJSON))),
            ("boundaries", .array(outcome.boundaries.map { .array([.int($0.index), .int($0.due.nanoseconds)]) })),
            ("boundaries_fired_ns", .array(finish.boundariesFired.map { .int($0.nanoseconds) })),
            ("fear_sound_effective", .bool(outcome.fearSoundEffective)),
            ("reason", outcome.reason.map { .string($0) } ?? .null),
            ("sound_audible_at_start", finish.soundAudibleAtStart.map { .bool($0) } ?? .null),
            ("timing_late_ns", outcome.timingLateness.map { .int($0.nanoseconds) } ?? .null),
            ("wall_clock_synchronised", finish.wallClockSynchronised.map { .bool($0) } ?? .null),
            ("study", finish.study.map(studyJSON) ?? .null),
            ("results_withheld", .bool(finish.resultsWithheld)),
        ])
    }

    /// `[index, start, tap]`, and Reproduction's presented onsets after them when it has them.
    static func attemptJSON(_ attempt: AttemptMeasurement) -> JSONValue {
        var entry: [JSONValue] = [.int(attempt.index), .int(attempt.startMark.nanoseconds), .int(attempt.tapMark.nanoseconds)]
        if attempt.presentedStart != nil || attempt.presentedEnd != nil {
            entry += [attempt.presentedStart.map { .int($0.nanoseconds) } ?? .null, attempt.presentedEnd.map { .int($0.nanoseconds) } ?? .null]
        }
        return .array(entry)
    }

    /// The study tag with the names it has on the sync wire (`StudyTag.CodingKeys`).
    static func studyJSON(_ tag: StudyTag) -> JSONValue {
        .object([
            ("protocol_name", .string(tag.protocolName)), ("protocol_version", .int(tag.protocolVersion)),
            ("participant", .string(tag.participant)), ("block_index", .int(tag.blockIndex)), ("block_name", .string(tag.blockName)),
            ("plan_position", .int(tag.planPosition)), ("condition", .string(tag.condition)), ("feedback_shown", .bool(tag.feedbackShown)),
        ])
    }

    /// Rebuilds the session from a fallback file's text; every number is range-checked like any input.
    public static func parse(_ text: String, allowTestIntervals: Bool = false) throws(UnsavedSessionFileError) -> SessionFinishRecord {
        do { return try decode(text, allowTestIntervals: allowTestIntervals) } catch let error as UnsavedSessionFileError { throw error } catch {
            throw .malformed("\(error)")
        }
    }

    private static func decode(_ text: String, allowTestIntervals: Bool) throws -> SessionFinishRecord {
        func bad(_ what: String) -> UnsavedSessionFileError { .malformed(what) }
        guard let data = text.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw bad("not a JSON object") }
        guard let version = object["chronoception_unsaved_session"] as? Int else { throw bad("no chronoception_unsaved_session key") }
        guard version <= formatVersion else { throw bad("format \(version) is newer than this program's \(formatVersion); update chronoception") }
        func int(_ value: Any?, _ name: String) throws -> Int64 {
            guard let number = value as? NSNumber, !["d", "f"].contains(String(cString: number.objCType)) else { throw bad("\(name) is not a whole number") }
            // 2⁶³ and beyond arrive as unsigned numbers that `int64Value` would wrap to negative.
            guard number.stringValue == String(number.int64Value) else { throw bad("\(name) is out of range") }
            return number.int64Value
        }
        func mark(_ value: Any?, _ name: String) throws -> MonotonicInstant {
            let nanoseconds = try int(value, name)
            guard TimeLimits.isAcceptedMonotonic(nanoseconds: nanoseconds) else { throw bad("\(name) is out of range") }
            return MonotonicInstant(nanoseconds: nanoseconds)
        }
        guard let sessionID = object["session_id"] as? String else { throw bad("session_id") }
        guard let board = object["board"] as? String else { throw bad("board") }
        guard let anchorObject = object["anchor"] as? [String: Any] else { throw bad("anchor") }
        let anchor = WallClockAnchor(unixNanoseconds: try int(anchorObject["unix_ns"], "anchor.unix_ns"),
                                     monotonic: try mark(anchorObject["monotonic_ns"], "anchor.monotonic_ns"),
                                     utcOffsetSeconds: Int(try int(anchorObject["utc_offset_seconds"], "anchor.utc_offset_seconds")))
        guard TimeLimits.isAcceptedWallClock(unixNanoseconds: anchor.unixNanoseconds), TimeLimits.isAcceptedUTCOffset(anchor.utcOffsetSeconds) else { throw bad("anchor out of range") }
        guard let c = object["configuration"] as? [String: Any], let mode = (c["mode"] as? String).flatMap(SessionMode.init(rawValue:)),
              let patternText = c["pattern"] as? String, let pattern = HapticPattern(notation: patternText),
              let threshold = (c["fear_threshold"] as? NSNumber)?.doubleValue, let autoStart = c["auto_start"] as? Bool else { throw bad("configuration") }
        // Format 1 had no feedback policy: every session it kept showed feedback.
        var feedback = FeedbackPolicy.shown
        if version >= 2 {
            guard let text = c["feedback"] as? String, let policy = FeedbackPolicy(rawValue: text) else {
                throw bad("configuration.feedback is not shown or withheld")
            }
            feedback = policy
        }
        let timingValues = try ["feedback_ms", "abort_window_ms", "debounce_ms", "long_press_ms"].map { name -> Int64 in
            let value = try int(c[name], "configuration.\(name)")
            if let problem = SessionValidation.timingProblem("configuration.\(name)", milliseconds: value) { throw bad(problem) }
            return value
        }
        let intervalMilliseconds = try int(c["interval_ms"], "configuration.interval_ms")
        let interval: TrainingInterval
        if intervalMilliseconds % 1000 != 0 && allowTestIntervals && SessionValidation.intervalMilliseconds.contains(intervalMilliseconds) {
            interval = .testOnly(milliseconds: intervalMilliseconds)  // a test session, imported by a test
        } else {
            do { interval = try TrainingInterval(seconds: Int(intervalMilliseconds / 1000)) } catch { throw bad("configuration: \(error)") }
            guard intervalMilliseconds % 1000 == 0 else { throw bad("configuration.interval_ms is not whole seconds") }
        }
        let configuration: SessionConfiguration
        do {
            configuration = try SessionConfiguration(
                mode: mode, interval: interval,
                plannedCount: Int(try int(c["planned_count"], "planned_count")), fearThreshold: threshold, intervalPattern: pattern,
                timing: SessionTiming(feedbackDuration: .milliseconds(timingValues[0]), abortConfirmWindow: .milliseconds(timingValues[1]),
                                      autoStartNextAttempt: autoStart),
                gestures: GestureSettings(debounce: .milliseconds(timingValues[2]), longPress: .milliseconds(timingValues[3])),
                feedback: feedback)
        } catch { throw bad("configuration: \(error)") }
        guard let status = (object["status"] as? String).flatMap(SessionStatus.init(rawValue:)) else { throw bad("status") }
        func presented(_ value: Any, _ name: String) throws -> MonotonicInstant? { value is NSNull ? nil : try mark(value, name) }
        let attempts = try ((object["attempts"] as? [[Any]]) ?? []).map { entry -> AttemptMeasurement in
            // Three entries, or five with Reproduction's presented marks (format 2).
            guard entry.count == 3 || (version >= 2 && entry.count == 5) else { throw bad("attempts") }
            return AttemptMeasurement(index: Int(try int(entry[0], "attempt index")), target: configuration.interval,
                                      startMark: try mark(entry[1], "attempt start"), tapMark: try mark(entry[2], "attempt tap"),
                                      presentedStart: entry.count == 5 ? try presented(entry[3], "attempt presented start") : nil,
                                      presentedEnd: entry.count == 5 ? try presented(entry[4], "attempt presented end") : nil)
        }
        let boundaries = try ((object["boundaries"] as? [[Any]]) ?? []).map { entry -> PassiveBoundary in
            guard entry.count == 2 else { throw bad("boundaries") }
            return PassiveBoundary(index: Int(try int(entry[0], "boundary index")), due: try mark(entry[1], "boundary due"))
        }
        let fired = try ((object["boundaries_fired_ns"] as? [Any]) ?? []).map { try mark($0, "boundary fired") }
        // Optional: files written before the timing flag existed have none.
        var timingLateness: TimeSpan?
        if let late = object["timing_late_ns"], !(late is NSNull) {
            timingLateness = TimeSpan(nanoseconds: try int(late, "timing_late_ns"))  // its range: SessionValidation
        }
        let outcome = SessionOutcome(status: status, configuration: configuration,
                                     startedAt: try mark(object["started_ns"], "started_ns"), endedAt: try mark(object["ended_ns"], "ended_ns"),
                                     attempts: attempts, boundaries: boundaries,
                                     fearSoundEffective: object["fear_sound_effective"] as? Bool ?? false, reason: object["reason"] as? String,
                                     timingLateness: timingLateness)
        var record = SessionFinishRecord(sessionID: sessionID, outcome: outcome, anchor: anchor, board: board, boundariesFired: fired,
                                         soundAudibleAtStart: object["sound_audible_at_start"] as? Bool)
        if version >= 2 {
            record.wallClockSynchronised = object["wall_clock_synchronised"] as? Bool
            guard let withheld = object["results_withheld"] as? Bool else { throw bad("results_withheld is not true or false") }
            record.resultsWithheld = withheld
            if let study = object["study"], !(study is NSNull) { record.study = try studyTag(study) }
        }
        // The core's rules, the same the store and a collector apply: a session that breaks one is
        // refused whole, so nothing the device could not have recorded reaches the store or the outbox.
        do { return try SessionValidation.validated(record) } catch { throw UnsavedSessionFileError.breaksRule(error) }
    }
}

extension UnsavedSessionFile {
    /// A format 2 file's study tag, decoded by `StudyTag`'s own names; its bounds are the core's
    /// (`StudyTag.problem`, the same the store and a collector apply).
    static func studyTag(_ value: Any) throws -> StudyTag {
        guard JSONSerialization.isValidJSONObject(value), let data = try? JSONSerialization.data(withJSONObject: value),
              let tag = try? JSONDecoder().decode(StudyTag.self, from: data) else {
            throw UnsavedSessionFileError.malformed("study is not a study tag (protocol_name, protocol_version, participant, block_index, block_name, plan_position, condition, feedback_shown)")
        }
        if let problem = tag.problem() { throw UnsavedSessionFileError.malformed(problem) }
        return tag
    }
}

/// Why a fallback file was refused.
public enum UnsavedSessionFileError: Error, Sendable, CustomStringConvertible {
    /// Not a file Chronoception wrote: not JSON, a key missing or of the wrong type, a number out of range.
    case malformed(String)
    /// Well-formed, but the session breaks one of the core's rules.
    case breaksRule(SessionRuleViolation)

    public var description: String {
        switch self {
        case .malformed(let what): return "is not an unsaved-session file Chronoception wrote (\(what))"
        case .breaksRule(let violation): return "holds a session Chronoception could not have recorded: \(violation.description)"
        }
    }
}
