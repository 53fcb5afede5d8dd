import ChronoCore
import ChronoRuntime
import ChronoStore
import Foundation
import Synchronization

/// A finished session the store could not keep (a full disk, a read-only card): written as JSON to a
/// fallback file outside the data directory and as one line on standard error, so that nothing the
/// person did is lost; `chronoception import FILE` puts it into the store later. Importing is
/// idempotent (the session id is the key), so importing twice, or importing a session that was saved
/// after all, never makes a duplicate session or health record.
enum UnsavedSession {
    /// The format's version, in the file as `chronoception_unsaved_session`.
    static let formatVersion = 1

    /// Where fallback files go: beside the state file (tmpfs under /run or $XDG_RUNTIME_DIR, so not
    /// on the disk that is full), in `unsaved/`.
    static func directory(stateFilePath: String = StateFile.defaultPath()) -> String {
        PathText.directory(of: stateFilePath) + "/unsaved"
    }

    static func json(_ finish: SessionFinishRecord) -> JSONValue {
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
    static func parse(_ text: String, source: String) throws -> SessionFinishRecord {
        func bad(_ what: String) -> CommandFailure {
            CommandFailure(message: "\(source) is not an unsaved-session file Chronoception wrote (\(what)).", status: .badInput)
        }
        guard let data = text.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw bad("not a JSON object") }
        guard let version = object["chronoception_unsaved_session"] as? Int else { throw bad("no chronoception_unsaved_session key") }
        guard version <= formatVersion else { throw bad("format \(version) is newer than this program's \(formatVersion); update chronoception") }
        func int(_ value: Any?, _ name: String) throws -> Int64 {
            guard let number = value as? NSNumber, !["d", "f"].contains(String(cString: number.objCType)) else { throw bad("\(name) is not a whole number") }
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
        guard TimeLimits.isAcceptedWallClock(unixNanoseconds: anchor.unixNanoseconds), abs(anchor.utcOffsetSeconds) <= 18 * 3600 else { throw bad("anchor out of range") }
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
        if intervalMilliseconds % 1000 != 0 && TestMode.isEnabled && (1...Int64(TrainingInterval.maximumSeconds) * 1000).contains(intervalMilliseconds) {
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
            let nanoseconds = try mark(late, "timing_late_ns").nanoseconds
            guard nanoseconds > 0 else { throw bad("timing_late_ns is not positive") }
            timingLateness = TimeSpan(nanoseconds: nanoseconds)
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
        do { return try SessionValidation.validated(record) } catch {
            throw CommandFailure(message: "\(source) holds a session Chronoception could not have recorded: \(error.description). Nothing was imported.",
                                 status: .badInput)
        }
    }
}

/// The sessions of this process that could not be saved and where their fallback files are; the
/// session commands exit with status 74 when it is not empty.
final class UnsavedSessionLog: Sendable {
    static let process = UnsavedSessionLog()

    private let entries = Mutex<[String]>([])

    /// Keeps `finish` in a fallback file and on standard error; returns where it went.
    func keep(_ finish: SessionFinishRecord, directory: String = UnsavedSession.directory(),
              report: @Sendable (String) -> Void) -> String {
        let text = UnsavedSession.json(finish).compactText
        report("warning: chronoception-unsaved-session: \(text)")
        let path = directory + "/unsaved-\(finish.sessionID).json"
        var kept = "standard error only"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try OutputFile.write(text + "\n", to: path)
            kept = path
        } catch {
            report("Could not write the fallback file \(path) either (\(error)); the line above holds the session: save it to a file and import it.")
        }
        entries.withLock { $0.append(kept) }
        return kept
    }

    var kept: [String] { entries.withLock { $0 } }

    /// The failure a session command ends with when sessions were not saved, or nil.
    var failure: CommandFailure? {
        let kept = self.kept
        guard !kept.isEmpty else { return nil }
        let files = kept.filter { $0.hasPrefix("/") }
        let hint = files.isEmpty ? "the JSON line printed above" : files.joined(separator: ", ")
        return CommandFailure(message: "\(kept.count) finished session\(kept.count == 1 ? " was" : "s were") not saved in the store; kept in \(hint). When the store can be written again, run `chronoception import FILE` for each.",
                              status: .ioError)
    }
}
