import ArgumentParser
import ChronoAPI
import ChronoCommandLine
import ChronoCore
import ChronoRuntime
import Foundation
import NIOHTTP1

/// Where the control verbs find the device API.
struct SocketOption: ParsableArguments {
    @Option(name: .customLong("socket"), help: "The device API's Unix socket (default: $XDG_RUNTIME_DIR/chronoception/api.sock, else /run/chronoception/api.sock).")
    var socketPath: String?

    var client: DeviceAPIClient { DeviceAPIClient(socketPath: socketPath ?? APIServerConfiguration.defaultSocketPath()) }
}

/// Sends one action and prints the device's answer; a refusal is `error: <reason>` and exit 1.
func performDeviceAction(_ client: DeviceAPIClient, _ path: String, json: String? = nil) throws {
    do {
        let reply = try runBlocking { try await client.request(.POST, path, json: json) }
        if (200..<300).contains(reply.status) {
            print(reply.json["message"] as? String ?? "Done.")
        } else {
            printError("error: \(reply.errorMessage ?? "the device API answered HTTP \(reply.status)")")
            throw ExitCode(1)
        }
    } catch let failure as DeviceAPIClient.Failure {
        printError("error: \(failure.description)")
        throw ExitCode(failure.exitCode)
    }
}

/// `chronoception start`: asks the running device to start a session.
struct StartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Start a session on the running device (`chronoception run`): the last configuration, a preset, or a mode and interval.")

    @Option(help: "Start the default mode at this interval (e.g. 30s, 5m).") var preset: String?
    @Option(help: "\(SessionMode.listText) (needs --interval).") var mode: SessionMode?
    @Option(help: "The interval, e.g. 30s, 5m, 1m30s (10s to 120m 59s).") var interval: String?
    @Option(help: "Attempts (\(SessionMode.attemptModesText)) or repetitions (\(SessionMode.boundaryModesText)), 1 to 99.") var count: Int?
    @OptionGroup var socket: SocketOption

    func validate() throws {
        if preset != nil && (mode != nil || interval != nil || count != nil) {
            throw ValidationError("Give either --preset or --mode with --interval (and --count), not both.")
        }
        if mode == nil && (interval != nil || count != nil) {
            throw ValidationError("--interval and --count need --mode (\(SessionMode.listText)); or use --preset 30s.")
        }
        if mode != nil && interval == nil { throw ValidationError("--mode needs --interval, e.g. --interval 5m.") }
        for text in [preset, interval].compactMap({ $0 }) {
            do { _ = try TrainingInterval.parse(text) } catch { throw ValidationError(error.description) }
        }
        if let count, !SessionConfiguration.countRange.contains(count) {
            throw ValidationError("--count must be from \(SessionConfiguration.countRange.lowerBound) to \(SessionConfiguration.countRange.upperBound).")
        }
    }

    func run() throws {
        var members: [(String, JSONValue)] = []
        if let preset { members.append(("preset", .string(preset))) }
        if let mode { members.append(("mode", .string(mode.rawValue))) }
        if let interval { members.append(("interval", .string(interval))) }
        if let count { members.append(("count", .int(count))) }
        try performDeviceAction(socket.client, "/device/start", json: JSONValue.object(members).compactText)
    }
}

/// `chronoception end`: ends the Passive session running on the device.
struct EndCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "end", abstract: "End the Passive session running on the device.")
    @OptionGroup var socket: SocketOption

    func run() throws { try performDeviceAction(socket.client, "/device/end") }
}

/// `chronoception discard`: discards the session running on the device.
struct DiscardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "discard", abstract: "Discard the session running on the device (saved as aborted; one discarded before its first press leaves nothing).")
    @OptionGroup var socket: SocketOption

    func run() throws { try performDeviceAction(socket.client, "/device/discard") }
}

/// One line per live event, for `status --follow`: the terminal's live view. Like the live card, it
/// never shows elapsed time during an attempt (the events carry none).
enum FollowLine {
    static func text(event: String, _ object: [String: Any]) -> String? {
        func string(_ key: String) -> String? {
            switch object[key] {
            case let value as String: return value
            case let value as NSNumber: return value.stringValue
            default: return nil
            }
        }
        switch event {
        case "state":
            var parts = [string("state") ?? "unknown"]
            if let mode = string("mode") { parts.append("\(mode)\(string("interval").map { " \($0)" } ?? "")") }
            if let attempt = string("attempt"), let count = string("attempt_count") { parts.append("attempt \(attempt) of \(count)") }
            if let done = string("repetitions_done"), let count = string("repetition_count") { parts.append("boundary \(done) of \(count)") }
            if let offered = string("offered_preset") { parts.append("offered \(offered)\(StateFileText.outsideStudySuffix(object))") }
            if let request = object["pairing_request"] as? [String: Any], let name = request["name"] as? String,
               let address = request["address"] as? String {
                parts.append("pairing request from \"\(TerminalSafeText.sanitized(name, keepNewlines: false))\" at \(TerminalSafeText.sanitized(address, keepNewlines: false)) (hold the button while idle to approve)")
            }
            // The study line on its own line, word for word as `status` prints it.
            let line = parts.joined(separator: " · ")
            return StateFileText.studyLine(object).map { line + "\n" + TerminalSafeText.sanitized($0, keepNewlines: false) } ?? line
        case "feedback":
            guard let text = string("text") else { return nil }
            let position = string("index").flatMap { index in string("count").map { "\(index) of \($0)" } }
            return "  \(position.map { "\($0): " } ?? "")\(text)"
        case "session_finished":
            return "Session \(string("session_id") ?? "") \(string("status") ?? "ended")."
        default:
            return nil
        }
    }
}
