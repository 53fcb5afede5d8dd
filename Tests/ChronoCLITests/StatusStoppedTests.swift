import ChronoCommandLine
import ChronoCore
import Foundation
import ChronoRuntime
import Testing
@testable import ChronoCLI

/// `status` with no device running: a `--json` reader still gets JSON (a stopped state with its reason,
/// in the state file's keys) and the exit status still says "not running"; the waybar line is valid JSON.
@Suite struct StatusStoppedTests {
    let missing = NSTemporaryDirectory() + "chronoception-status-\(UUID().uuidString)/state.json"

    @Test func theStoppedJSONUsesTheStateFilesKeysAndSaysWhy() {
        #expect(StoppedStatus.json(stateFile: "/run/x/state.json").compactText
                == #"{"version":"# + "\(DeviceState.formatVersion)" + #","state":"Stopped","reason":"no state file at /run/x/state.json: the device is not running; start it with chronoception run, or a single session with chronoception challenge","state_file":"/run/x/state.json"}"#)
    }

    @Test(arguments: [["--json"], ["--format", "json"]])
    func jsonWithNoDeviceIsJSONAndExitsNotRunning(flags: [String]) throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let result = try FullDiskCommandTests.run(binary, ["status", "--state-file", missing] + flags)
        #expect(result.status == ExitStatus.notRunning.rawValue)
        #expect(result.errors == "")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["state"] as? String == "Stopped")
        #expect(object["version"] as? Int == DeviceState.formatVersion)
        #expect(object["state_file"] as? String == missing)
        #expect((object["reason"] as? String)?.hasPrefix("no state file at \(missing): the device is not running") == true)
    }

    @Test func textWithNoDeviceIsASentence() throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let result = try FullDiskCommandTests.run(binary, ["status", "--state-file", missing])
        #expect(result.status == ExitStatus.notRunning.rawValue)
        #expect(result.output == "No state file at \(missing): the device is not running. Start a session with `chronoception challenge` or the device with `chronoception run`.\n")
    }

    @Test func waybarWithNoDeviceIsValidWaybarJSON() throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let empty = NSTemporaryDirectory() + "chronoception-status-data-\(UUID().uuidString)"
        let result = try FullDiskCommandTests.run(binary, ["status", "--state-file", missing, "--format", "waybar", "--data-dir", empty])
        #expect(result.status == 0)
        #expect(result.output.hasSuffix("\n") && result.output.dropLast().contains("\n") == false)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: String])
        #expect(object == ["text": "⏱ —", "tooltip": "The device is not running.", "class": "stopped", "alt": "Stopped"])
        #expect(FileManager.default.fileExists(atPath: empty) == false)
    }
}
