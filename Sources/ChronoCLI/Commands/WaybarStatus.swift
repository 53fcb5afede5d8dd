import ArgumentParser
import ChronoCore
import ChronoRuntime
import ChronoStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `status --format text|json|waybar`.
enum StatusFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    case text, json, waybar
}

/// The glanceable status as one line of JSON for desktop bars (waybar's `custom` module with
/// `"return-type": "json"`, or i3blocks with `format=json`): `text` for the bar, `tooltip` with more,
/// `class` (the device state, lower-case, for CSS) and `alt`. During a Challenge or Fear attempt it
/// shows the attempt number only, never a clock: the bar must not give the answer away.
enum WaybarStatus {
    /// - Parameter hideScores: the store's `glanceable-privacy`; a file whose writer withheld results
    ///   (`glanceable_privacy: true`) is shown withheld too. `GlanceablePrivacy` decides what goes.
    static func line(stateFileText: String?, lastSession: ProgressReport.SessionLine?, hideScores: Bool = false) -> String {
        let read = stateFileText.flatMap { $0.data(using: .utf8) }.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        let hidden = hideScores || ((read?[GlanceablePrivacy.member] as? NSNumber)?.boolValue ?? false)
        let state = read.map { GlanceablePrivacy.shown($0, hidden: hidden) }
        func field(_ key: String) -> String? {
            switch state?[key] {
            case let value as String: return value
            case let value as NSNumber: return value.stringValue
            default: return nil
            }
        }
        // The state file's own last_session when its writer fills it; else the store's, in the file's
        // shape, so the privacy switch treats both alike.
        let fromStore = lastSession.flatMap { session -> [String: Any]? in
            var last: [String: Any] = ["date": session.startedAt.localDayText, "interval": session.interval.description]
            if let score = session.timeAcuityScore { last["time_acuity_score"] = NSNumber(value: score) }
            return GlanceablePrivacy.shown(["last_session": last], hidden: hidden)["last_session"] as? [String: Any]
        }
        let last = ((state?["last_session"] as? [String: Any]) ?? fromStore).flatMap { last -> String? in
            guard let date = last["date"] as? String, let interval = last["interval"] as? String else { return nil }
            let score = (last["time_acuity_score"] as? NSNumber).map { " · \($0.intValue)" } ?? ""
            return "\(date) \(interval)\(score)"
        }
        let deviceState = field("state") ?? "Stopped"
        var running = state != nil
        // The same test as `status` (a zombie has ended too).
        if let read, let pid = StateFileText.writerPID(read), StateFileText.writerHasEnded(pid: pid) { running = false }
        var text: String
        var tooltip: [String] = []
        if !running {
            text = last.map { "⏱ \($0)" } ?? "⏱ —"
            tooltip.append("The device is not running.")
        } else if let mode = field("mode"), ["WaitingForStart", "AttemptRunning", "FeedbackFlash", "PassiveRunning", "SessionSummary"].contains(deviceState) {
            let interval = field("interval") ?? ""
            if mode == "passive" {
                text = "⏱ passive \(interval) \(field("repetitions_done") ?? "0")/\(field("repetition_count") ?? "?")"
            } else {
                text = "⏱ \(mode) \(interval) \(field("attempt") ?? "1")/\(field("attempt_count") ?? "?")"
            }
            tooltip.append("\(deviceState) on \(field("board") ?? "the device")")
            if let feedback = field("last_feedback") { tooltip.append("Last feedback: \(feedback)") }
        } else {
            text = "⏱ " + (last ?? deviceState.lowercased())
            tooltip.append("\(deviceState) on \(field("board") ?? "the device")")
        }
        if let last { tooltip.append("Last session: \(last)") }
        if let health = field("health") { tooltip.append("Health log: \(health)") }
        // A board with a battery: its level on the bar (⚡ while charging), the rest in the tooltip.
        if running, let battery = state?["battery"] as? [String: Any], let percent = battery["percent"] as? NSNumber,
           let line = read.flatMap(StateFileText.batteryLine) {
            let charging = ["charging", "full", "not-charging"].contains(battery["charge"] as? String ?? "")
            text += " \(charging ? "⚡" : "🔋")\(percent.intValue)%"
            tooltip.append(line)
        }
        // Today's count against the daily goal on the bar (a goal set), the line and a due reminder in the tooltip.
        if running, let read, let today = StateFileText.todayLine(read) {
            if let counts = read["today"] as? [String: Any], let goal = counts["goal"] as? NSNumber, let done = counts["sessions"] as? NSNumber {
                text += " · \(done.intValue)/\(goal.intValue)"
            }
            tooltip.append(today)
        }
        if running, let reminder = read?["reminder"] as? String { tooltip.append("Reminder: \(reminder)") }
        if hidden { tooltip.append("Scores hidden (glanceable-privacy is on).") }
        let object: [String: String] = [
            "text": text,
            "tooltip": tooltip.joined(separator: "\n"),
            "class": running ? deviceState.lowercased() : "stopped",
            "alt": running ? deviceState : "Stopped",
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
