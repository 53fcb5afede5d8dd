import ArgumentParser
import ChronoCommandLine
import ChronoCore
import ChronoRuntime
import ChronoStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `chronoception status`: what the device is doing, from the glanceable state file.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show what the device is doing (read from the state file), or follow it live with --follow.")

    @Option(name: .customLong("state-file"), help: "The state file to read (default: $XDG_RUNTIME_DIR/chronoception/state.json, else /run/chronoception/state.json).")
    var stateFile: String?

    @Flag(help: "Print the state file's JSON as it is.")
    var json = false

    @Option(help: "Output format: text, json (the state file as it is) or waybar (one compact JSON line for waybar's or i3blocks' custom module; always exits 0).")
    var format: StatusFormat = .text

    @Option(name: .customLong("data-dir"), help: "Data directory whose device to show: its state file (unless --state-file), and the last session the waybar format shows (read only; default as for every store command).")
    var dataDirectory: String?

    @Flag(help: "Follow the device live: print each state change, feedback and session end as it happens (from the device API), until Ctrl-C.")
    var follow = false

    @OptionGroup var socket: SocketOption

    func run() throws {
        if follow {
            let client = socket.client
            do {
                try runBlocking {
                    try await client.followEvents { name, object in
                        if let line = FollowLine.text(event: name, object) { print(line) }
                        fflush(nil)
                    }
                }
            } catch let failure as DeviceAPIClient.Failure {
                printError("error: \(failure.description)")
                throw ExitCode(failure.exitCode)
            }
            return
        }
        // The state file of the data directory asked about: each device process writes its own.
        let path = stateFile ?? StoreOptions.defaultStateFilePath(dataDirectory: dataDirectory)
        if format == .waybar {
            let glance = storeGlance()
            print(WaybarStatus.line(stateFileText: StateFile(path: path).read(), lastSession: glance.last, hideScores: glance.hideScores))
            return
        }
        let shown = TerminalSafeText.quoted(path, limit: 200)
        var info = stat()
        guard stat(path, &info) == 0 else {
            guard errno == ENOENT else {
                throw CommandFailure(message: "The state file \(shown) cannot be read: \(String(cString: strerror(errno))).", status: .noInput)
            }
            print(json || format == .json ? StoppedStatus.json(stateFile: path).compactText : StoppedStatus.text(stateFile: path))
            throw ExitCode(ExitStatus.notRunning.rawValue)
        }
        let bytes = try InputFile.read(path, what: "The state file \(shown)", limit: 1 << 20)
        guard let text = String(validating: bytes, as: UTF8.self), let data = text.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CommandFailure(message: "\(shown) is not a state file (it is not a JSON object). Give the file `chronoception run` writes (see --help), or leave --state-file out.", status: .badInput)
        }
        if let version = object["version"] as? NSNumber, version.intValue > DeviceState.formatVersion {
            printError("warning: \(shown) was written by a newer Chronoception (state file version \(version), this one reads \(DeviceState.formatVersion)); fields it does not know are not shown. Update chronoception.")
        }
        let endedWriter = StateFileText.writerPID(object).flatMap { StateFileText.writerHasEnded(pid: $0) ? $0 : nil }
        if json || format == .json {
            if let endedWriter {
                print(StoppedStatus.json(stateFile: path, stale: (endedWriter, object["state"] as? String)).compactText)
                throw ExitCode(ExitStatus.notRunning.rawValue)
            }
            // A file written for another data directory says so here too, as the text output does.
            if let asked = askedDataDirectory, StateFileText.isAnotherDevice(object, dataDirectory: asked),
               let written = object["data_dir"] as? String,
               let marked = AnotherDeviceStatus.json(stateFileText: text, object: object, written: written, asked: asked) {
                print(marked)
                return
            }
            print(text.trimmingCharacters(in: .whitespacesAndNewlines))
            return
        }
        for line in StateFileText.lines(object, dataDirectory: askedDataDirectory) { print(TerminalSafeText.sanitized(line)) }
        if endedWriter != nil { throw ExitCode(ExitStatus.notRunning.rawValue) }
    }

    /// The data directory `status` is about (`--data-dir`, else the default), made absolute, to tell
    /// a state file of another device from this one's.
    var askedDataDirectory: String? {
        (try? StoreLocation.resolve(explicit: dataDirectory, environment: ProcessInfo.processInfo.environment, runningAsService: false))
            .map { absolutePath($0.directory) }
    }

    /// The store's last completed session and its `glanceable-privacy` setting, read only: a missing
    /// store is no session (never created here), and a store that cannot be read leaves the bar showing
    /// the device state alone.
    func storeGlance() -> (last: ProgressReport.SessionLine?, hideScores: Bool) {
        guard let location = try? StoreLocation.resolve(explicit: dataDirectory, environment: ProcessInfo.processInfo.environment, runningAsService: false),
              access(location.databasePath, R_OK) == 0,
              let store = try? ChronoStore.open(location) else { return (nil, false) }
        // A study session whose results are withheld now shows no score (the store's one rule).
        let last = try? store.sessionPage(SessionQuery(status: .completed, limit: 1)).sessions.first
        let withheld = last.map { line in
            (try? store.withheldResultSessionIDs(nowUnixNanoseconds: LocalTimeZone.nowUnixNanoseconds()).contains(line.sessionID)) ?? true
        } ?? false
        return (withheld ? last?.withheld : last, (try? store.settings().glanceablePrivacy) ?? false)
    }
}
