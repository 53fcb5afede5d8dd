import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The state file (`DeviceState`'s JSON) in words, as `chronoception status` prints it. Here, beside
/// the file's writer, so the reader and the writer change together (and the state-file fuzzer needs
/// no more than the runtime).
public enum StateFileText {
    /// The state file in words; says when the process that wrote it is gone.
    public static func lines(_ object: [String: Any]) -> [String] {
        func text(_ key: String) -> String? {
            switch object[key] {
            case let value as String: return value
            case let value as NSNumber: return value.stringValue
            default: return nil
            }
        }
        var lines: [String] = []
        var state = text("state") ?? "unknown"
        if let pid = object["pid"] as? NSNumber, kill(pid_t(pid.int32Value), 0) != 0, errno == ESRCH {
            state += " (not running: the process that wrote this, pid \(pid), has ended)"
        }
        lines.append("State: \(state)")
        if let board = text("board") { lines.append("Board: \(board)") }
        if let mode = text("mode") {
            lines.append("Mode: \(mode)\(text("interval").map { ", interval \($0)" } ?? "")")
        }
        if let attempt = text("attempt"), let count = text("attempt_count") { lines.append("Attempt: \(attempt) of \(count)") }
        if let done = text("repetitions_done"), let count = text("repetition_count") { lines.append("Boundaries: \(done) of \(count)") }
        if let next = text("next_boundary") { lines.append("Next boundary: \(next)") }
        if let offered = text("offered_preset") { lines.append("Offered preset: \(offered)\(outsideStudySuffix(object))") }
        if let line = studyLine(object) { lines.append(line) }
        if let last = object["last_session"] as? [String: Any], (last["results_withheld"] as? NSNumber)?.boolValue == true {
            lines.append("Last session: results withheld (a study block without feedback)")
        }
        if let request = object["pairing_request"] as? [String: Any], let name = request["name"] as? String,
           let address = request["address"] as? String {
            lines.append("Pairing request: \(name) from \(address) (hold the button while idle to approve)")
        }
        if let feedback = text("last_feedback") { lines.append("Last feedback: \(feedback)") }
        if let sound = text("fear_sound") { lines.append("Fear sound: \(sound)") }
        if let health = text("health") { lines.append("Health log: \(health)") }
        if (object["glanceable_privacy"] as? NSNumber)?.boolValue == true { lines.append("Scores: hidden (glanceable-privacy is on)") }
        if let updated = text("updated") { lines.append("Updated: \(updated)") }
        return lines
    }

    /// The assigned study's line, in the daemon's own words (never an elapsed time), as `status` and
    /// `status --follow` print it; nil without a study.
    public static func studyLine(_ object: [String: Any]) -> String? {
        (object["study"] as? [String: Any])?["line"] as? String
    }

    /// " (outside the study)" after an offered preset while a study runs (a preset starts a session
    /// with no study tag), else "".
    public static func outsideStudySuffix(_ object: [String: Any]) -> String {
        let studyRuns = (object["study"] as? [String: Any]).map { ($0["finished"] as? NSNumber)?.boolValue != true } ?? false
        return studyRuns ? " (outside the study)" : ""
    }
}
