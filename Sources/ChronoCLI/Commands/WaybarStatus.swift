import ArgumentParser
import ChronoCore
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
    static func line(stateFileText: String?, lastSession: ProgressReport.SessionLine?) -> String {
        let state = stateFileText.flatMap { $0.data(using: .utf8) }.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        func field(_ key: String) -> String? {
            switch state?[key] {
            case let value as String: return value
            case let value as NSNumber: return value.stringValue
            default: return nil
            }
        }
        // The state file's own last_session when its writer fills it; else the store's.
        let fromStateFile = (state?["last_session"] as? [String: Any]).flatMap { last -> String? in
            guard let date = last["date"] as? String, let interval = last["interval"] as? String else { return nil }
            let score = (last["time_acuity_score"] as? NSNumber).map { " · \($0.intValue)" } ?? ""
            return "\(date) \(interval)\(score)"
        }
        let last = fromStateFile ?? lastSession.map { session -> String in
            let score = session.timeAcuityScore.map { " · \($0)" } ?? ""
            return "\(session.startedAt.localDayText) \(session.interval.description)\(score)"
        }
        let deviceState = field("state") ?? "Stopped"
        var running = state != nil
        if let pid = (state?["pid"] as? NSNumber)?.int32Value, kill(pid_t(pid), 0) != 0, errno == ESRCH { running = false }
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
