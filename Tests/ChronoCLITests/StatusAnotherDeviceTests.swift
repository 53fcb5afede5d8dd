import ChronoCommandLine
import ChronoCore
import Foundation
import Testing
@testable import ChronoCLI

/// `status --json` on a state file written for another data directory says so, as the text output
/// does: the file's own members, plus a `reason` naming both directories; the exit status is the text
/// output's (0).
@Suite struct StatusAnotherDeviceTests {
    static let written = #"{"version":3,"state":"Idle","board":"desktop","data_dir":"/srv/other","pid":"#

    @Test func theReasonIsAddedAfterTheFilesOwnMembers() throws {
        let text = Self.written + "1}\n"
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let marked = try #require(AnotherDeviceStatus.json(stateFileText: text, object: object, written: "/srv/other", asked: "/srv/mine"))
        #expect(marked == Self.written + #"1,"reason":"this state file was written for the data directory /srv/other, not /srv/mine, the one asked about: it is another device's; give that directory's --data-dir or --state-file to see this device"}"#)
        // A file that has a reason of its own is printed as it is.
        let own = #"{"data_dir":"/srv/other","reason":"x"}"#
        let ownObject = try #require(try JSONSerialization.jsonObject(with: Data(own.utf8)) as? [String: Any])
        #expect(AnotherDeviceStatus.json(stateFileText: own, object: ownObject, written: "/srv/other", asked: "/srv/mine") == nil)
    }

    @Test(arguments: [["--json"], ["--format", "json"]])
    func jsonNamesAnotherDeviceAndExitsAsTheTextDoes(flags: [String]) throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let folder = NSTemporaryDirectory() + "chronoception-status-other-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/mine", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/state.json"
        // Written by a process that is alive (this one), so the file is not stale.
        try (Self.written + "\(getpid())}").write(toFile: path, atomically: true, encoding: .utf8)
        let asked = folder + "/mine"

        let json = try FullDiskCommandTests.run(binary, ["status", "--state-file", path, "--data-dir", asked] + flags)
        let text = try FullDiskCommandTests.run(binary, ["status", "--state-file", path, "--data-dir", asked])
        #expect(json.status == text.status)
        #expect(json.status == 0)
        #expect(json.errors == "")
        #expect(text.output.contains("Data directory: /srv/other (another device: not \(asked), the one asked about)"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(object["state"] as? String == "Idle")
        #expect(object["data_dir"] as? String == "/srv/other")
        #expect(object["board"] as? String == "desktop")
        #expect(object["reason"] as? String
                == "this state file was written for the data directory /srv/other, not \(asked), the one asked about: it is another device's; give that directory's --data-dir or --state-file to see this device")

        // The file of the directory asked about is printed as it is, with no reason.
        let same = try FullDiskCommandTests.run(binary, ["status", "--state-file", path, "--data-dir", "/srv/other"] + flags)
        #expect(same.status == 0)
        #expect(same.output == Self.written + "\(getpid())}\n")
    }
}
