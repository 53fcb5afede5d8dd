import ChronoCore
import Foundation
import ChronoRuntime

/// What `status --json` says when the state file was written for another data directory than the one
/// asked about (another device, as the text output says): the state file as it is, with a `reason`
/// member naming both directories, so a script sees what a person reads. The exit status is the text
/// output's: 0, the other device may well be running.
enum AnotherDeviceStatus {
    /// The reason, without commands in backticks (a widget may show it as it is).
    static func reason(written: String, asked: String) -> String {
        "this state file was written for the data directory \(TerminalSafeText.sanitized(written)), not \(TerminalSafeText.sanitized(asked)), "
            + "the one asked about: it is another device's; give that directory's --data-dir or --state-file to see this device"
    }

    /// The state file's JSON text (already accepted as a JSON object) with `reason` added as its last
    /// member; the file's own members are kept as they were written. Nil when `text` is not an object's
    /// text after all, or the file already has a `reason` of its own (then it is printed as it is).
    static func json(stateFileText text: String, object: [String: Any], written: String, asked: String) -> String? {
        guard object["reason"] == nil else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("{"), trimmed.hasSuffix("}") else { return nil }
        let body = trimmed.dropLast().trimmingCharacters(in: .whitespacesAndNewlines)
        let member = JSONValue.string("reason").compactText + ":" + JSONValue.string(reason(written: written, asked: asked)).compactText
        return body + (object.isEmpty ? "" : ",") + member + "}"
    }
}
