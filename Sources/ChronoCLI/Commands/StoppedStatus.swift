import ChronoCore
import ChronoRuntime

/// What `status` says when there is no state file, so no device is running: one sentence for a person,
/// and for a `--json` reader a JSON object in the state file's own keys (`version`, `state` =
/// `Stopped`) with the `reason` in words — a script that parses standard output gets JSON every time
/// (the exit status, 3, still says "not running").
enum StoppedStatus {
    /// The reason, without commands in backticks: a widget may show it to a person as it is.
    static func reason(stateFile path: String) -> String {
        "no state file at \(TerminalSafeText.sanitized(path)): the device is not running; start it with chronoception run, or a single session with chronoception challenge"
    }

    /// The sentence `status` prints.
    static func text(stateFile path: String) -> String {
        "No state file at \(TerminalSafeText.sanitized(path)): the device is not running. Start a session with `chronoception challenge` or the device with `chronoception run`."
    }

    /// The JSON `status --json` prints: the state file's keys for a stopped device, plus `reason` and
    /// the `state_file` looked for.
    static func json(stateFile path: String) -> JSONValue {
        .object([
            ("version", .int(DeviceState.formatVersion)),
            ("state", .string(DeviceState.Name.stopped.rawValue)),
            ("reason", .string(reason(stateFile: path))),
            ("state_file", .string(path)),
        ])
    }
}
