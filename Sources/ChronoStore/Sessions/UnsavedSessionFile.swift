import ChronoCore
import Foundation

/// The fallback file a finished session is kept in when the store cannot save it (a full disk, a
/// read-only card): its JSON form and the one decoder `chronoception import` uses. The decoder treats
/// the file as input from outside — every number range-checked, the session through the core's
/// `SessionValidation` — because a person may edit it, or be handed one. Kept in the store's module
/// (not the command line) so the fuzzer can reach it without the servers.
public enum UnsavedSessionFile {
    /// The format's version, in the file as `chronoception_unsaved_session`.
    public static let formatVersion = 1

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
            ])),
            ("status", .string(outcome.status.rawValue)),
            ("started_ns", .int(outcome.startedAt.nanoseconds)),
            ("ended_ns", .int(outcome.endedAt.nanoseconds)),
            ("attempts", .array(outcome.attempts.map { .array([.int($0.index), .int($0.startMark.nanoseconds), .int($0.tapMark.nanoseconds)]) })),
            ("boundaries", .array(outcome.boundaries.map { .array([.int($0.index), .int($0.due.nanoseconds)]) })),
            ("boundaries_fired_ns", .array(finish.boundariesFired.map { .int($0.nanoseconds) })),
            ("fear_sound_effective", .bool(outcome.fearSoundEffective)),
            ("reason", outcome.reason.map { .string($0) } ?? .null),
            ("sound_audible_at_start", finish.soundAudibleAtStart.map { .bool($0) } ?? .null),
            ("timing_late_ns", outcome.timingLateness.map { .int($0.nanoseconds) } ?? .null),
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
        let timingValues = try ["feedback_ms", "abort_window_ms", "debounce_ms", "long_press_ms"].map { name -> Int64 in
            let value = try int(c[name], "configuration.\(name)")
            guard (0...TimeLimits.maximumTimingMilliseconds).contains(value) else { throw bad("configuration.\(name) out of range") }
            return value
        }
        let intervalMilliseconds = try int(c["interval_ms"], "configuration.interval_ms")
        let interval: TrainingInterval
        if intervalMilliseconds % 1000 != 0 && allowTestIntervals && (1...Int64(TrainingInterval.maximumSeconds) * 1000).contains(intervalMilliseconds) {
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
                gestures: GestureSettings(debounce: .milliseconds(timingValues[2]), longPress: .milliseconds(timingValues[3])))
        } catch { throw bad("configuration: \(error)") }
        guard let status = (object["status"] as? String).flatMap(SessionStatus.init(rawValue:)) else { throw bad("status") }
        let attempts = try ((object["attempts"] as? [[Any]]) ?? []).map { entry -> AttemptMeasurement in
            guard entry.count == 3 else { throw bad("attempts") }
            return AttemptMeasurement(index: Int(try int(entry[0], "attempt index")), target: configuration.interval,
                                      startMark: try mark(entry[1], "attempt start"), tapMark: try mark(entry[2], "attempt tap"))
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
        let record = SessionFinishRecord(sessionID: sessionID, outcome: outcome, anchor: anchor, board: board, boundariesFired: fired,
                                         soundAudibleAtStart: object["sound_audible_at_start"] as? Bool)
        // The core's rules, the same the store and a collector apply: a session that breaks one is
        // refused whole, so nothing the device could not have recorded reaches the store or the outbox.
        do { return try SessionValidation.validated(record) } catch { throw UnsavedSessionFileError.breaksRule(error) }
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
