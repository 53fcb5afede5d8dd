import ChronoCore
import ChronoStore
import ChronoTesting
import Foundation
import Testing

/// `chronoception note` (issue 22) run as the program: set, show, change, clear by id, prefix or
/// `last`; `sessions` shows the note; every refusal is one `error:` line naming the fix, exit 64.
@Suite("chronoception note")
struct NoteCommandTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        return try FullDiskCommandTests.run(binary, arguments)
    }

    @Test("set, show, change and clear a note by id, prefix and last; sessions shows it; refusals name the fix")
    func noteCommand() throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        let data = ["--data-dir", fixture.directory]
        let empty = try Self.run(["note", "last", "x"] + data)
        #expect(empty.status == 64)
        #expect(empty.errors == "error: The store has no sessions yet; a note goes on a session after it ran.\n")

        try fixture.addSessions(2)
        let ids = try fixture.store.recentSessions(limit: 2).map(\.sessionID)
        let latest = ids[0]

        let set = try Self.run(["note", "last", "  after coffee "] + data)
        #expect(set.status == 0 && set.errors.isEmpty)
        #expect(set.output == "Note on session \(latest): after coffee\n")
        #expect(try Self.run(["note", latest.lowercased()] + data).output == "after coffee\n")
        #expect(try Self.run(["note", String(latest.prefix(8))] + data).output == "after coffee\n")
        #expect(try Self.run(["note", "last", "after coffee"] + data).output == "Session \(latest) already has this note; nothing changed.\n")

        let listed = try Self.run(["sessions"] + data)
        #expect(listed.output.components(separatedBy: "\n").filter { $0.hasPrefix("    Note: ") } == ["    Note: after coffee"])
        let json = try Self.run(["sessions", "--json"] + data)
        #expect(json.output.contains(#""note": "after coffee""#))

        let csv = try Self.run(["export", "csv", "--all"] + data)
        let rows = csv.output.components(separatedBy: "\r\n")
        #expect(rows[0].hasSuffix(",timing_late_ms,note,presented_start_mono_ns,presented_end_mono_ns,feedback_withheld,results_withheld,reason"))
        #expect(rows.filter { $0.hasPrefix(latest) }.allSatisfy { $0.hasSuffix(",after coffee,,,,,") })

        let long = try Self.run(["note", "last", String(repeating: "y", count: 300)] + data)
        #expect(long.status == 64)
        #expect(long.errors == "error: The note is 300 characters long; a note holds at most 200. Shorten it.\n")
        let control = try Self.run(["note", "last", "a\u{1B}[2Jb"] + data)
        #expect(control.status == 64)
        #expect(control.errors == "error: The note holds a control character (U+001B); write it on one line with ordinary characters.\n")

        let unknown = try Self.run(["note", sid("NONE"), "x"] + data)
        #expect(unknown.status == 64)
        #expect(unknown.errors == "error: No session \(sid("NONE")) in the store. `chronoception sessions --json` lists the ids; `last` names the latest session.\n")
        let noPrefix = try Self.run(["note", "FFFFFFFF", "x"] + data)
        #expect(noPrefix.status == 64)
        #expect(noPrefix.errors == "error: No session's id starts with 'FFFFFFFF'. `chronoception sessions --json` lists the ids; `last` names the latest session.\n")
        let short = try Self.run(["note", "ab", "x"] + data)
        #expect(short.status == 64)
        #expect(short.errors == "error: 'ab' is not a session id, nor its first 4 or more characters (hexadecimal digits and dashes), nor `last`. `chronoception sessions --json` lists the ids.\n")
        let both = try Self.run(["note", "last", "x", "--clear"] + data)
        #expect(both.status == 64 && both.errors.hasPrefix("error: Give either the note or --clear, not both.\n"))

        let cleared = try Self.run(["note", "last", "--clear"] + data)
        #expect(cleared.status == 0 && cleared.output == "Removed the note on session \(latest).\n")
        #expect(try Self.run(["note", "last"] + data).output == "Session \(latest) has no note.\n")
        #expect(try fixture.store.session(id: latest).note == nil)
        #expect(try fixture.store.session(id: ids[1]).note == nil)
    }

    @Test("a prefix that starts two ids is refused, naming both; one more character picks one")
    func ambiguousPrefix() throws {
        let fixture = try ScratchStore()
        defer { fixture.remove() }
        let interval = try TrainingInterval(seconds: 60)
        let configuration = try SessionConfiguration(mode: .challenge, interval: interval, plannedCount: 1)
        let ids = ["ABCD1000-0000-4000-8000-000000000001", "ABCD2000-0000-4000-8000-000000000002"]
        let finishes = ids.enumerated().map { index, id in
            let anchor = WallClockAnchor(unixNanoseconds: 1_795_000_000_000_000_000 + Int64(index) * 600_000_000_000,
                                         monotonic: MonotonicInstant(nanoseconds: 1_000_000_000), utcOffsetSeconds: 0)
            let start = anchor.monotonic
            let attempt = AttemptMeasurement(index: 1, target: interval, startMark: start + .seconds(1), tapMark: start + .seconds(62))
            let outcome = SessionOutcome(status: .completed, configuration: configuration, startedAt: start, endedAt: start + .seconds(62),
                                         attempts: [attempt], boundaries: [], fearSoundEffective: false, reason: nil)
            return SessionFinishRecord(sessionID: id, outcome: outcome, anchor: anchor, board: "desktop", boundariesFired: [], wallClockSynchronised: true)
        }
        try fixture.store.importFinishedSessions(finishes, nowUnixNanoseconds: 1_795_000_000_000_000_000)
        let data = ["--data-dir", fixture.directory]
        let both = try Self.run(["note", "abcd", "x"] + data)
        #expect(both.status == 64)
        #expect(both.errors == "error: 'abcd' starts the ids of more than one session (\(ids[1]), \(ids[0])); give more of the id.\n")
        let one = try Self.run(["note", "abcd1", "x"] + data)
        #expect(one.status == 0 && one.output == "Note on session \(ids[0]): x\n")
    }
}
