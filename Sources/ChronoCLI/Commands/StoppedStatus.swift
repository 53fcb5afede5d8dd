import ChronoCore
import ChronoRuntime

/// What `status` says when there is no state file, so no device is running: one sentence for a person,
/// and for a `--json` reader a JSON object in the state file's own keys (`version`, `state` =
/// `Stopped`) with the `reason` in words — a script that parses standard output gets JSON every time
/// (the exit status, 3, still says "not running"). A state file whose writer has ended is the same:
/// stopped, exit 3, with the reason naming the pid.
enum StoppedStatus {
    /// The reason, without commands in backticks: a widget may show it to a person as it is.
    static func reason(stateFile path: String) -> String {
        "no state file at \(TerminalSafeText.sanitized(path)): the device is not running; start it with chronoception run, or a single session with chronoception challenge"
    }

    /// The sentence `status` prints.
    static func text(stateFile path: String) -> String {
        "No state file at \(TerminalSafeText.sanitized(path)): the device is not running. Start a session with `chronoception challenge` or the device with `chronoception run`."
    }

    /// The reason for a state file whose writer has ended (killed, crashed: it had no chance to say
    /// it stopped), without commands in backticks.
    static func reason(staleStateFile path: String, pid: Int32) -> String {
        "the process that wrote \(TerminalSafeText.sanitized(path)), pid \(pid), has ended: the device is not running; start it with chronoception run, or a single session with chronoception challenge"
    }

    /// The JSON `status --json` prints: the state file's keys for a stopped device, plus `reason` and
    /// the `state_file` looked for. `stale`: the file is there, but the pid that wrote it has ended
    /// (its last state is in `last_state`).
    static func json(stateFile path: String, stale: (pid: Int32, lastState: String?)? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("version", .int(DeviceState.formatVersion)),
            ("state", .string(DeviceState.Name.stopped.rawValue)),
            ("reason", .string(stale.map { reason(staleStateFile: path, pid: $0.pid) } ?? reason(stateFile: path))),
            ("state_file", .string(path)),
        ]
        if let stale {
            members.append(("pid", .int(Int(stale.pid))))
            members.append(("last_state", stale.lastState.map { .string($0) } ?? .null))
        }
        return .object(members)
    }
}
