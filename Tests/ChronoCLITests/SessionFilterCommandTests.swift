import ChronoAPI
@testable import ChronoCLI
import ChronoCore
import ChronoStore
import ChronoTesting
import Foundation
import Testing

/// `sessions` and `export csv` with `--mode`, `--interval`, `--from`, `--to` and `--study` (issue 35,
/// item 3), run as the program over five sessions; each refusal against the API's 400 for the same
/// value (one validator, `SessionFilterText`).
@Suite("chronoception sessions and export csv: the page's filters")
struct SessionFilterCommandTests {
    /// Five sessions, one a day from 2026-11-20 (UTC): id, mode, interval in seconds, study.
    static let plan: [(id: String, mode: SessionMode, seconds: Int, study: String?)] = [
        ("00000000-0000-4000-8000-00000000000A", .challenge, 30, nil),
        ("00000000-0000-4000-8000-00000000000B", .passive, 30, nil),
        ("00000000-0000-4000-8000-00000000000C", .challenge, 60, "sleep-2026"),
        ("00000000-0000-4000-8000-00000000000D", .reproduction, 30, "sleep-2026"),
        ("00000000-0000-4000-8000-00000000000E", .fear, 60, "other"),
    ]

    static func fill(_ store: ChronoStore) throws {
        for (day, entry) in plan.enumerated() {
            let interval = try TrainingInterval(seconds: entry.seconds)
            let configuration = try SessionConfiguration(mode: entry.mode, interval: interval, plannedCount: 1)
            let start = MonotonicInstant(nanoseconds: 1_000_000_000)
            let anchor = WallClockAnchor(unixNanoseconds: (1_795_168_800 + Int64(day) * 86_400) * 1_000_000_000,
                                         monotonic: start, utcOffsetSeconds: 0)
            let span = TimeSpan.seconds(Int64(entry.seconds))
            let outcome: SessionOutcome
            if entry.mode == .passive {
                outcome = SessionOutcome(status: .completed, configuration: configuration, startedAt: start, endedAt: start + span,
                                         attempts: [], boundaries: [PassiveBoundary(index: 1, due: start + span)], fearSoundEffective: false, reason: nil)
            } else {
                var attempt = AttemptMeasurement(index: 1, target: interval, startMark: start + .seconds(1), tapMark: start + .seconds(1) + span)
                if entry.mode == .reproduction {
                    attempt = AttemptMeasurement(index: 1, target: interval, startMark: start + .seconds(1) + span + .seconds(1),
                                                 tapMark: start + .seconds(1) + span + .seconds(1) + span,
                                                 presentedStart: start, presentedEnd: start + span)
                }
                outcome = SessionOutcome(status: .completed, configuration: configuration, startedAt: start, endedAt: attempt.tapMark,
                                         attempts: [attempt], boundaries: [], fearSoundEffective: false, reason: nil)
            }
            var finish = SessionFinishRecord(sessionID: entry.id, outcome: outcome, anchor: anchor, board: "desktop",
                                             wallClockSynchronised: true)
            finish.study = entry.study.map {
                StudyTag(protocolName: $0, protocolVersion: 1, participant: "P01", blockIndex: 0, blockName: "b",
                         planPosition: day, condition: "c", feedbackShown: true)
            }
            try store.recordSessionFinished(finish, nowUnixNanoseconds: anchor.unixNanoseconds + 100_000_000_000)
        }
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        return try FullDiskCommandTests.run(binary, arguments)
    }

    /// The letters (A…E) of the sessions `sessions --json` lists, newest first.
    static func listed(_ filters: [String], data: [String]) throws -> String {
        let result = try run(["sessions", "--json"] + filters + data)
        #expect(result.status == 0, "\(filters): \(result.errors)")
        let array = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]] ?? []
        return array.compactMap { ($0["session_id"] as? String)?.suffix(1) }.joined()
    }

    /// The letters of the sessions `export csv` writes, oldest first (one row per attempt or boundary).
    static func exported(_ filters: [String], data: [String]) throws -> String {
        let result = try run(["export", "csv"] + filters + data)
        #expect(result.status == 0, "\(filters): \(result.errors)")
        return result.output.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }
            .map { String($0.prefix(36).suffix(1)) }.joined()
    }

    @Test("each filter alone and combined, in sessions and export csv")
    func filters() throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        try Self.fill(fixture.store)
        let data = ["--data-dir", fixture.directory]
        #expect(try Self.listed([], data: data) == "EDCBA")
        #expect(try Self.listed(["--mode", "challenge"], data: data) == "CA")
        #expect(try Self.listed(["--mode", "Reproduction"], data: data) == "D")
        #expect(try Self.listed(["--interval", "30s"], data: data) == "DBA")
        #expect(try Self.listed(["--interval", "1m"], data: data) == "EC")
        #expect(try Self.listed(["--from", "2026-11-22"], data: data) == "EDC")
        #expect(try Self.listed(["--to", "2026-11-21"], data: data) == "BA")
        #expect(try Self.listed(["--from", "2026-11-21", "--to", "2026-11-22"], data: data) == "CB")
        #expect(try Self.listed(["--study", "sleep-2026"], data: data) == "DC")
        #expect(try Self.listed(["--study", "nobody"], data: data) == "")
        #expect(try Self.listed(["--mode", "challenge", "--interval", "60", "--study", "sleep-2026",
                                 "--from", "2026-11-22", "--to", "2026-11-22"], data: data) == "C")
        #expect(try Self.listed(["--mode", "challenge", "--limit", "1"], data: data) == "C")

        let none = try Self.run(["sessions", "--mode", "fear", "--interval", "30s"] + data)
        #expect(none.status == 0)
        #expect(none.output == "No sessions match these filters. Widen the days or leave a filter out; `chronoception sessions` lists every session.\n")
        let table = try Self.run(["sessions", "--study", "other"] + data)
        let rows = table.output.components(separatedBy: "\n").filter { !$0.isEmpty }
        #expect(rows.count == 2 && rows[0].hasPrefix("  Started") && rows[1].hasPrefix("  2026-11-24 "))
        #expect(rows.last?.contains("fear") == true)

        #expect(try Self.exported(["--all"], data: data) == "ABCDE")
        #expect(try Self.exported(["--all", "--mode", "challenge"], data: data) == "AC")
        #expect(try Self.exported(["--all", "--interval", "30s"], data: data) == "ABD")
        #expect(try Self.exported(["--all", "--study", "sleep-2026"], data: data) == "CD")
        // Days given by --from/--to stand in for the last-90-days default.
        #expect(try Self.exported(["--from", "2026-11-23"], data: data) == "DE")
        #expect(try Self.exported(["--to", "2026-11-20"], data: data) == "A")
        #expect(try Self.exported(["--mode", "fear", "--from", "2026-11-20", "--to", "2026-11-24", "--study", "other"], data: data) == "E")
        let both = try Self.run(["export", "csv", "--days", "30", "--from", "2026-11-20"] + data)
        #expect(both.status == 64)
        #expect(both.errors.hasPrefix("error: --days and --from/--to both choose the days: give one of them.\n"))
    }

    /// The API's answers (status and error message) to each query, from a server over the store in
    /// `directory`, as in ControlVerbTests.
    static func apiRefusals(_ queries: [String], directory: String) async throws -> [(status: Int, message: String?)] {
        var template = Array("/tmp/chrono-filter-api-XXXXXX".utf8CString)
        let folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try ChronoStore.open(StoreLocation(directory: directory))
        let device = FakeDevice()
        let server = APIServer(store: store, device: device, configuration: APIServerConfiguration(socketPath: folder + "/api.sock", tcp: nil))
        let task = Task { try await server.run() }
        _ = try await server.listening()
        while device.subscriberCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        var answers: [(status: Int, message: String?)] = []
        do {
            for query in queries {
                let reply = try await DeviceAPIClient(socketPath: folder + "/api.sock").request(.GET, "/sessions?" + query)
                answers.append((reply.status, reply.errorMessage))
            }
        } catch {
            await server.shutdown()
            _ = await task.result
            throw error
        }
        await server.shutdown()
        _ = await task.result
        return answers
    }

    @Test("bad values are refused before the store is read, with the API's words (the option's name for the parameter's)")
    func refusals() async throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        let data = ["--data-dir", fixture.directory]
        let cases: [(arguments: [String], query: String, cli: String, api: String)] = [
            (["--mode", "sprint"], "mode=sprint",
             "'sprint' is not a mode. Use challenge, fear, passive or reproduction.",
             "'sprint' is not a mode. Use challenge, fear, passive or reproduction."),
            (["--interval", "5s"], "interval=5s",
             "5s is too short: intervals go from 10s to 120m 59s.",
             "5s is too short: intervals go from 10s to 120m 59s."),
            (["--interval", "soon"], "interval=soon",
             "'soon' is not an interval. Write it as seconds or minutes and seconds, for example 300, 45s, 5m or 1m30s.",
             "'soon' is not an interval. Write it as seconds or minutes and seconds, for example 300, 45s, 5m or 1m30s."),
            (["--from", "2026-11-25", "--to", "2026-11-20"], "from=2026-11-25&to=2026-11-20",
             "--from must not be after --to.", "from must not be after to."),
            (["--from", "2026-02-30"], "from=2026-02-30",
             "--from must be a date as YYYY-MM-DD from 1970-01-01 to 2099-12-31, e.g. 2026-11-23; got '2026-02-30'.",
             "from must be a date as YYYY-MM-DD from 1970-01-01 to 2099-12-31, e.g. 2026-11-23; got '2026-02-30'."),
            (["--to", "23/11/2026"], "to=23%2F11%2F2026",
             "--to must be a date as YYYY-MM-DD from 1970-01-01 to 2099-12-31, e.g. 2026-11-23; got '23/11/2026'.",
             "to must be a date as YYYY-MM-DD from 1970-01-01 to 2099-12-31, e.g. 2026-11-23; got '23/11/2026'."),
            (["--study", "my study"], "study=my%20study",
             "--study 'my study' is not a name: use 1 to 64 letters, digits, '-', '_' or '.', e.g. sleep-2026.",
             "study 'my study' is not a name: use 1 to 64 letters, digits, '-', '_' or '.', e.g. sleep-2026."),
        ]
        for entry in cases {
            for command in [["sessions"], ["export", "csv"]] {
                let result = try Self.run(command + entry.arguments + data)
                #expect(result.status == 64, "\(command + entry.arguments)")
                #expect(result.output.isEmpty)
                #expect(result.errors.components(separatedBy: "\n").first == "error: " + entry.cli, "\(command + entry.arguments)")
            }
        }
        let answers = try await Self.apiRefusals(cases.map(\.query), directory: fixture.directory)
        for (entry, answer) in zip(cases, answers) {
            #expect(answer.status == 400, "\(entry.query)")
            #expect(answer.message == entry.api, "\(entry.query)")
        }
    }
}
