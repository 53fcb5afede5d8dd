import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The state file (`DeviceState`'s JSON) in words, as `chronoception status` prints it. Here, beside
/// the file's writer, so the reader and the writer change together (and the state-file fuzzer needs
/// no more than the runtime).
public enum StateFileText {
    /// The state file in words; says when the process that wrote it is gone, and when it describes
    /// another data directory than `dataDirectory` (the one `status` was asked about): another device.
    public static func lines(_ object: [String: Any], dataDirectory: String? = nil) -> [String] {
        func text(_ key: String) -> String? {
            switch object[key] {
            case let value as String: return value
            case let value as NSNumber: return value.stringValue
            default: return nil
            }
        }
        var lines: [String] = []
        var state = text("state") ?? "unknown"
        if let pid = writerPID(object), writerHasEnded(pid: pid) {
            state += " (not running: the process that wrote this, pid \(pid), has ended)"
        }
        lines.append("State: \(state)")
        if let written = object["data_dir"] as? String {
            let other = dataDirectory.map { isAnotherDevice(object, dataDirectory: $0) } ?? false
            lines.append("Data directory: \(written)" + (other ? " (another device: not \(dataDirectory ?? ""), the one asked about)" : ""))
        }
        if let board = text("board") { lines.append("Board: \(board)") }
        if let mode = text("mode") {
            lines.append("Mode: \(mode)\(text("interval").map { ", interval \($0)" } ?? "")")
        }
        if let attempt = text("attempt"), let count = text("attempt_count") { lines.append("Attempt: \(attempt) of \(count)") }
        if let done = text("repetitions_done"), let count = text("repetition_count") { lines.append("Boundaries: \(done) of \(count)") }
        if let next = text("next_boundary") { lines.append("Next boundary: \(next)") }
        if let offered = text("offered_preset") { lines.append("Offered preset: \(offered)\(outsideStudySuffix(object))") }
        if let line = studyLine(object) { lines.append(line) }
        if let today = todayLine(object) { lines.append(today) }
        if let reminder = object["reminder"] as? String { lines.append("Reminder: \(reminder)") }
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
        if let battery = batteryLine(object) { lines.append(battery) }
        if let update = updateLine(object) { lines.append(update) }
        if (object["glanceable_privacy"] as? NSNumber)?.boolValue == true { lines.append("Scores: hidden (glanceable-privacy is on)") }
        if let updated = text("updated") { lines.append("Updated: \(updated)") }
        return lines
    }

    /// `Update: Installing 0.2.0: 40 %; no session starts until it is done. (version 0.1.0, slot A)`: the card's last
    /// update in words, with the version and slot running; nil where nothing was ever updated.
    public static func updateLine(_ object: [String: Any]) -> String? {
        guard let update = object["update"] as? [String: Any], let line = update["line"] as? String,
              let running = update["running_version"] as? String else { return nil }
        let slot = (update["slot"] as? String).map { ", slot \($0)" } ?? ""
        return "Update: \(line) (version \(running)\(slot))"
    }

    /// `Battery: 12 % (discharging, low)`, and the reason no session starts at the stop level; nil on a
    /// board without a battery (the file has no `battery` member). The waybar line reads it too.
    public static func batteryLine(_ object: [String: Any]) -> String? {
        guard let battery = object["battery"] as? [String: Any], let percent = battery["percent"] as? NSNumber,
              let charge = battery["charge"] as? String else { return nil }
        let level = (battery["level"] as? String).flatMap { $0 == "normal" ? nil : $0 }
        let reason = (battery["reason"] as? String).map { " \($0)" } ?? ""
        return "Battery: \(percent.intValue) % (\(charge)\(level.map { ", \($0)" } ?? ""))\(reason)"
    }

    /// `Today: 1 of 3 sessions` (the `today` member's line: today's count against the daily goal);
    /// nil when the file has none. The waybar line reads it too.
    public static func todayLine(_ object: [String: Any]) -> String? {
        (object["today"] as? [String: Any])?["line"] as? String
    }

    /// The `pid` the file's writer stamped, when it is a process id at all.
    public static func writerPID(_ object: [String: Any]) -> Int32? {
        guard let number = object["pid"] as? NSNumber, let pid = Int32(exactly: number.doubleValue), pid > 0 else { return nil }
        return pid
    }

    /// Whether the process `pid` has ended: no such process, or a zombie (killed and not yet reaped,
    /// so `kill(pid, 0)` still succeeds but it will write nothing more). `status`, its `--json` and
    /// the waybar line all ask this.
    public static func writerHasEnded(pid: Int32) -> Bool {
        guard pid > 0 else { return true }
        if kill(pid, 0) != 0 && errno == ESRCH { return true }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        // Field 3, the state, follows the command name's closing parenthesis: Z zombie, X dead.
        guard let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].split(separator: " ").first
        return state == "Z" || state == "X"
    }

    /// Whether the file records a data directory other than `dataDirectory`.
    public static func isAnotherDevice(_ object: [String: Any], dataDirectory: String) -> Bool {
        guard let written = object["data_dir"] as? String else { return false }
        return standardized(written) != standardized(dataDirectory)
    }

    private static func standardized(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path }
        defer { free(real) }
        return String(cString: real)
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
