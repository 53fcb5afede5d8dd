import ChronoCore
import ChronoSync
import Foundation

/// The fallback file a finished session is kept in when the store cannot save it (a full disk, a
/// read-only card), and the one decoder `chronoception import` uses. The decoder treats the file as
/// input from outside, because a person may edit it or be handed one. Kept in the store's module (not
/// the command line) so the fuzzer can reach it without the servers.
///
/// Format 3 is the session record itself (`SyncedSession`, the sync wire form) in a small envelope
/// (docs/STORE.md, "Fallback files"), so a fallback file and a sync batch carry a session in the same
/// shape and are checked by the same validator (`SyncedSession.validatedOutcome`). Formats 1 and 2,
/// which older versions wrote, are still read (`UnsavedSessionFileLegacy`).
public enum UnsavedSessionFile {
    /// The format's version, in the file as `chronoception_unsaved_session`.
    public static let formatVersion = 3

    /// A format 3 file as it is read: the record, and what the device decided as the session finished that the
    /// record does not hold (whether its results were withheld then, which the device keeps only in
    /// the health record it writes).
    struct Envelope: Codable {
        var format: Int
        var resultsWithheld: Bool
        var session: SyncedSession

        enum CodingKeys: String, CodingKey {
            case format = "chronoception_unsaved_session"
            case resultsWithheld = "results_withheld"
            case session
        }
    }

    /// The file's text (one line of JSON) for `finish`: its record (`SessionFinishRecord.record`, where
    /// a start fact the finish leaves unknown is written as assumed) and whether its results were withheld.
    public static func text(_ finish: SessionFinishRecord) -> String {
        JSONValue.object([
            ("chronoception_unsaved_session", .int(formatVersion)), ("results_withheld", .bool(finish.resultsWithheld)),
            ("session", finish.record.json),
        ]).compactText
    }

    /// Rebuilds the session from a fallback file's text, of any format this program knows.
    /// `allowTestIntervals`: test mode is on (sessions below the product minimum are accepted).
    public static func parse(_ text: String, allowTestIntervals: Bool = false) throws(UnsavedSessionFileError) -> SessionFinishRecord {
        guard let data = text.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw .malformed("not a JSON object") }
        guard let version = object["chronoception_unsaved_session"] as? Int else { throw .malformed("no chronoception_unsaved_session key") }
        guard version <= formatVersion else { throw .malformed("format \(version) is newer than this program's \(formatVersion); update chronoception") }
        guard version >= 1 else { throw .malformed("format \(version) is not a format of this file (1 to \(formatVersion))") }
        guard version >= 3 else {
            do { return try UnsavedSessionFileLegacy.decode(object, version: version, allowTestIntervals: allowTestIntervals) }
            catch let error as UnsavedSessionFileError { throw error } catch { throw .malformed("\(error)") }
        }
        let envelope: Envelope
        do { envelope = try JSONDecoder().decode(Envelope.self, from: data) } catch {
            throw .malformed(DecodingProblem.text(error))
        }
        return try finishRecord(envelope, allowTestIntervals: allowTestIntervals)
    }

    /// Why an interval of `milliseconds` (inside the one range, but not a product interval) is not
    /// imported without test mode: every format says it in these words.
    static func testIntervalProblem(_ name: String, milliseconds: Int64) -> String {
        "\(name) \(milliseconds) is a test-mode interval (a product interval is whole seconds from \(TrainingInterval.minimumSeconds) s to \(TrainingInterval.maximumSeconds) s); import it with test mode on, or not at all"
    }

    /// The finish record of a decoded format 3 file, through the record's own validator.
    static func finishRecord(_ envelope: Envelope, allowTestIntervals: Bool) throws(UnsavedSessionFileError) -> SessionFinishRecord {
        let session = envelope.session
        let outcome: SessionOutcome
        do { outcome = try session.validatedOutcome() } catch {
            guard let rule = SessionRule(rawValue: error.rule) else { throw .malformed(error.problem) }
            throw .breaksRule(SessionRuleViolation(sessionID: SessionRuleViolation.shown(id: session.id), rule: rule, detail: error.problem))
        }
        let interval = outcome.configuration.interval
        if !allowTestIntervals && !interval.isProductInterval {
            throw .malformed(testIntervalProblem("session.target_interval_ms", milliseconds: session.targetIntervalMilliseconds))
        }
        // The finish keeps the firings measured from the first boundary on (`SessionRunner.reported`).
        let fired = session.boundaries.prefix { $0.firedMonotonicNanoseconds != nil }
        guard fired.count == session.boundaries.filter({ $0.firedMonotonicNanoseconds != nil }).count else {
            throw .malformed("session.boundaries has a firing after a boundary whose firing was not measured")
        }
        if let problem = withheldProblem(envelope.resultsWithheld, study: session.study) { throw .malformed(problem) }
        var record = SessionFinishRecord(sessionID: session.canonicalID, outcome: outcome, anchor: session.anchor, board: session.board,
                                         boundariesFired: fired.compactMap { $0.firedMonotonicNanoseconds.map(MonotonicInstant.init(nanoseconds:)) },
                                         wallClockSynchronised: session.wallClockSynchronised, soundAudibleAtStart: session.soundAudibleAtStart)
        record.study = session.study
        record.resultsWithheld = envelope.resultsWithheld
        return record
    }
}

extension UnsavedSessionFile {
    /// Why `results_withheld` cannot be as a file says, or nil: only a session of a study block that
    /// withholds feedback has its results withheld (`ResultsWithholding`), in every format.
    static func withheldProblem(_ resultsWithheld: Bool, study: StudyTag?) -> String? {
        resultsWithheld && study?.feedbackShown != false
            ? "results_withheld is true for a session outside a study block that withholds feedback" : nil
    }
}

/// A `DecodingError` in words a person can act on: which member, and what is wrong with it.
enum DecodingProblem {
    static func text(_ error: any Error) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text.isEmpty ? "the file" : text
        }
        switch error {
        case DecodingError.keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(path(context.codingPath)) is not of the right type"
        case DecodingError.dataCorrupted(let context): return "\(path(context.codingPath)) is out of range or not valid"
        default: return "\(error)"
        }
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
