import ChronoCore
import Foundation

/// The reader of fallback files in formats 1 and 2, which devices wrote before format 3 and which may
/// still sit on cards in the field or in a person's mail. Every number is range-checked like any
/// input, and the session goes through the core's `SessionValidation`. Format 2 held the whole
/// finished session in its own shape (docs/STORE.md, "Fallback files"); format 1 had no feedback
/// policy, presented marks, study tag or `results_withheld` (feedback shown, no study tag, results
/// not withheld). Nothing writes these formats any more.
enum UnsavedSessionFileLegacy {
    /// The session of a format 1 or 2 file whose JSON object is `object`.
    static func decode(_ object: [String: Any], version: Int, allowTestIntervals: Bool) throws -> SessionFinishRecord {
        func bad(_ what: String) -> UnsavedSessionFileError { .malformed(what) }
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
        guard let interval = SessionValidation.interval(milliseconds: intervalMilliseconds) else {
            throw bad(SessionValidation.intervalProblem("configuration.interval_ms", milliseconds: intervalMilliseconds) ?? "configuration.interval_ms")
        }
        if !allowTestIntervals && !interval.isProductInterval {
            throw bad(UnsavedSessionFile.testIntervalProblem("configuration.interval_ms", milliseconds: intervalMilliseconds))
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
                                     fearSoundEffective: object["fear_sound_effective"] as? Bool ?? false, reason: (object["reason"] as? String).map(SessionValidation.keepableReason),
                                     timingLateness: timingLateness)
        var record = SessionFinishRecord(sessionID: sessionID, outcome: outcome, anchor: anchor, board: board, boundariesFired: fired,
                                         soundAudibleAtStart: object["sound_audible_at_start"] as? Bool)
        if version >= 2 {
            record.wallClockSynchronised = object["wall_clock_synchronised"] as? Bool
            guard let withheld = object["results_withheld"] as? Bool else { throw bad("results_withheld is not true or false") }
            record.resultsWithheld = withheld
            if let study = object["study"], !(study is NSNull) { record.study = try studyTag(study) }
            if let problem = UnsavedSessionFile.withheldProblem(withheld, study: record.study) { throw bad(problem) }
        }
        // The core's rules, the same the store and a collector apply: a session that breaks one is
        // refused whole, so nothing the device could not have recorded reaches the store or the outbox.
        do { return try SessionValidation.validated(record) } catch { throw UnsavedSessionFileError.breaksRule(error) }
    }
}

extension UnsavedSessionFileLegacy {
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
