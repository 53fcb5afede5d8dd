import ChronoCollector
import ChronoCommandLine
import ChronoCore
import Foundation
import Testing

/// `chronoception-collector protocol …` as a person runs it: the built program in a subprocess (TZ=UTC,
/// so "today" and `--start` are stated exactly), its standard output, its one `error:` line and its
/// exit status (docs/EXIT-CODES.md).
@Suite("Collector protocol commands")
struct CollectorProtocolCommandTests {
    struct Result: Equatable {
        var status: Int32
        var output: String
        var error: String
    }

    static func binary() throws -> String {
        let me = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let binary = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("chronoception-collector").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build chronoception-collector first (swift build)")
        return binary
    }

    static func run(_ arguments: [String], in directory: String) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try binary())
        process.arguments = ["protocol"] + arguments + ["--data-dir", directory]
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "UTC"
        process.environment = environment
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complained = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: printed, error: complained)
    }

    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/protocols/sleep-2026.json").path

    @Test("load, list, assign, status and unassign on an SQLite store, refusals with their exit status")
    func protocolCommands() throws {
        let directory = CollectorCommandTests.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = try String(contentsOfFile: Self.example, encoding: .utf8)

        #expect(try Self.run(["list"], in: directory) == Result(
            status: 0, output: "No protocol is loaded. `chronoception-collector protocol load FILE` loads one (docs/STUDIES.md has a worked example).\n", error: ""))
        #expect(try Self.run(["status"], in: directory).output
            == "No participant is assigned a protocol. `chronoception-collector protocol assign NAME --participant P` assigns one.\n")

        // Missing file: 66. A bad document: 65, every problem with its line, on one error line.
        let missing = try Self.run(["load", directory + "/none.json"], in: directory)
        #expect(missing.status == ExitStatus.noInput.rawValue)
        #expect(missing.error == "error: Cannot read the protocol file '\(directory)/none.json': check the path (docs/STUDIES.md has an example).\n")
        let bad = directory + "/bad.json"
        try "{\n  \"name\": \"x\",\n  \"version\": 1,\n  \"schedule\": {\"sessions_per_day\": 1, \"days\": 1},\n  \"blocks\": [{\"name\": \"f\", \"mode\": \"fear\", \"interval\": \"5s\"}]\n}\n"
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try Self.run(["load", bad], in: directory)
        #expect(refused.status == ExitStatus.badInput.rawValue && refused.output == "")
        #expect(refused.error == "error: '\(bad)' is not a valid protocol (1 problem): line 5: 5s is too short: intervals go from 10s to 120m 59s. Fix the file and load it again.\n")

        let loaded = try Self.run(["load", Self.example], in: directory)
        #expect(loaded == Result(status: 0, output: "Loaded sleep-2026@1: 4 blocks, 28 sessions over 14 days, 2 a day at least 180 minutes apart. Assign it with `chronoception-collector protocol assign sleep-2026@1 --participant P`.\n", error: ""))
        let again = try Self.run(["load", Self.example], in: directory)
        #expect(again.status == 0 && again.output.hasPrefix("sleep-2026@1 was loaded on ") && again.output.hasSuffix(" UTC with the same content; nothing changed.\n"))
        // Other content under the same name and version: refused (65), the file's fix named.
        let changed = directory + "/changed.json"
        try text.replacingOccurrences(of: "\"minimum_gap_minutes\": 180", with: "\"minimum_gap_minutes\": 120").write(toFile: changed, atomically: true, encoding: .utf8)
        let conflict = try Self.run(["load", changed], in: directory)
        #expect(conflict.status == ExitStatus.badInput.rawValue)
        #expect(conflict.error.hasPrefix("error: sleep-2026@1 was loaded on "))
        #expect(conflict.error.hasSuffix(" UTC with other content, and a loaded protocol never changes (participants may follow it). Give the changed file \"version\": 2 and load it as a new protocol.\n"))

        // Assign from yesterday (UTC): day 2 of the study is today, yesterday's two sessions are missed.
        let today = CalendarDay(daysSinceEpoch: Int64(Date().timeIntervalSince1970) / 86_400)!
        let yesterday = CalendarDay(daysSinceEpoch: today.daysSinceEpoch - 1)!
        let assigned = try Self.run(["assign", "sleep-2026", "--participant", "P017", "--start", yesterday.description, "--seed", "42"], in: directory)
        #expect(assigned == Result(status: 0, output: """
            Assigned sleep-2026@1 to participant 'P017' (participant index 0, seed 42; day 1 begins \(yesterday) 00:00 UTC). Their devices receive it with their next sync.
            No enrolled device belongs to participant 'P017' yet: enrol one with `chronoception-collector enrol NAME --participant P017`.

            """, error: ""))
        #expect(try Self.run(["assign", "sleep-2026@1", "--participant", "P017"], in: directory).output.hasPrefix("Participant 'P017' is assigned sleep-2026@1 already"))
        for (arguments, status) in [
            (["assign", "sleep-2027", "--participant", "P018"], ExitStatus.usage),
            (["assign", "sleep-2026@x", "--participant", "P018"], .usage),
            (["assign", "sleep-2026", "--participant", "P018", "--start", "2026-02-30"], .usage),
            (["assign", "sleep-2026", "--participant", "P018", "--seed", "9007199254740992"], .usage),
            (["unassign", "--participant", "P018"], .usage),
        ] {
            let result = try Self.run(arguments, in: directory)
            #expect(result.status == status.rawValue, "\(arguments)")
            #expect(result.error.hasPrefix("error: ") && result.output == "", "\(arguments)")
        }
        #expect(try Self.run(["assign", "sleep-2027", "--participant", "P018"], in: directory).error
            == "error: No protocol sleep-2027 is loaded (loaded: sleep-2026@1). Load it first: `chronoception-collector protocol load FILE`.\n")

        let status = try Self.run(["status"], in: directory)
        #expect(status == Result(status: 0, output: """
            Participant  Protocol      Day  Done  Due  Missed  Upcoming  Consent  Next due
            P017         sleep-2026@1  2    0     2    2       24        —        now

            """, error: ""))
        let list = try Self.run(["list"], in: directory)
        #expect(list.status == 0)
        #expect(list.output.split(separator: "\n").first == "Protocol      Blocks  Sessions  Days  Participants  Loaded")
        #expect(list.output.split(separator: "\n").last?.hasPrefix("sleep-2026@1  4       28        14    1             ") == true)

        #expect(try Self.run(["unassign", "--participant", "P017"], in: directory) == Result(status: 0, output: """
            Unassigned sleep-2026@1 from participant 'P017'; their devices drop it at their next sync. Their sessions stay; assigning sleep-2026@1 again restores the same plan.

            """, error: ""))
    }
}
