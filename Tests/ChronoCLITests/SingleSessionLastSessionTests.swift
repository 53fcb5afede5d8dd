import ChronoCore
import ChronoHardware
import ChronoRuntime
import ChronoStore
import ChronoTesting
import Foundation
import Testing
@testable import ChronoCLI
@testable import ChronoDevice
#if canImport(Glibc)
import Glibc
#endif

/// The state file's `last_session` when `challenge`, `passive` or `fear` writes it, as the daemon's
/// does: the store's newest completed session from the first state on, and the session itself once it
/// completes; `glanceable-privacy` withholds its score. Exact JSON.
@Suite("Single-session commands: last_session in the state file", .serialized)
struct SingleSessionLastSessionTests {
    static func ms(_ value: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: value * 1_000_000) }

    static func tap(_ at: Int64) -> [SessionEvent] {
        [.button(RawButtonEdge(pressed: true, at: ms(at))), .button(RawButtonEdge(pressed: false, at: ms(at + 60)))]
    }

    /// A completed Challenge 60s ×2 in the store (errors −2 s and +3 s: 4.17 %, score 92), started
    /// 2026-11-18 11:06:40 UTC, 12:06:40 in its own +01:00.
    static func seedCompletedChallenge(_ store: ChronoStore) throws {
        let finish = try UnsavedSessionTests.finish()
        try store.recordSessionStarted(SessionStartRecord(sessionID: finish.sessionID, configuration: finish.outcome.configuration,
                                                          anchor: finish.anchor, board: finish.board, soundAudible: false))
        try store.recordSessionFinished(finish, nowUnixNanoseconds: 1_795_000_200_000_000_000)
    }

    static let seeded = #"{"date":"2026-11-18","interval":"1m 0s","interval_seconds":60,"time_acuity_score":92,"results_withheld":false}"#
    static let seededHidden = #"{"date":"2026-11-18","interval":"1m 0s","interval_seconds":60,"time_acuity_score":null,"results_withheld":false}"#

    /// The file's `last_session` member as written (after `GlanceablePrivacy`).
    static func lastSession(_ state: DeviceState?) throws -> String? {
        try #require(state).published(at: WallTime(unixNanoseconds: 0, utcOffsetSeconds: 0)).stateFileJSON(pid: 1)["last_session"]?.compactText
    }

    /// The state file as written (compact JSON, keys in the writer's order): one member's text.
    static func member(_ key: String, in text: String?) -> String? {
        guard let text, let start = text.range(of: "\"\(key)\":") else { return nil }
        var depth = 0, end = start.upperBound
        var inString = false
        while end < text.endIndex {
            let character = text[end]
            if character == "\"" { inString.toggle() }
            if !inString {
                if character == "{" { depth += 1 }
                if character == "}" { if depth == 0 { break }; depth -= 1 }
                if character == ",", depth == 0 { break }
            }
            end = text.index(after: end)
        }
        return String(text[start.upperBound..<end])
    }

    static func states(_ actions: [LoopAction]) -> [DeviceState] {
        actions.compactMap { if case .state(let state) = $0 { return state } else { return nil } }
    }

    /// Challenge 10s ×1 run to the end with the controller `challenge` uses, on a virtual clock, its
    /// records saved to the store: every state before completion names the store's session, the ones
    /// after it the session just finished, exactly as the store then lists it.
    @Test("the store's newest at start, the session just finished once completed; privacy withholds the score", arguments: [false, true])
    func controllerOverTheStore(hidden: Bool) throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        try Self.seedCompletedChallenge(scratch.store)
        let recorder = StoreSessionRecorder(store: scratch.store, report: { _ in })
        var context = SessionContext(board: "desktop", pressHint: "press space", soundAudibility: .inaudible(reason: "none"), healthStatus: "on")
        context.glanceablePrivacy = hidden
        context.lastSession = try scratch.store.sessionPage(SessionQuery(status: .completed, limit: 1)).sessions.first.map(DeviceState.LastSession.init)
        let controller = SingleSessionController(
            configuration: try SessionConfiguration(mode: .challenge, interval: TrainingInterval(seconds: 10), plannedCount: 1),
            context: context, sessionID: "0F3A0000-0000-4000-8000-000000000001")
        var published: [DeviceState] = []
        func take(_ actions: [LoopAction]) {
            for action in actions {
                switch action {
                case .state(let state): published.append(state)
                case .sessionStarted(let record): recorder.sessionStarted(record)
                case .sessionFinished(let record): recorder.sessionFinished(record)
                default: break
                }
            }
        }
        take(controller.start(at: Self.ms(0)))
        #expect(published.first?.state == .waitingForStart)
        #expect(try Self.lastSession(published.first) == (hidden ? Self.seededHidden : Self.seeded))
        // The attempt started at 1 s and answered exactly 10 s later: no error, score 100.
        EventFeeding.feed(Self.tap(1_000) + Self.tap(11_000), deadlinesUpTo: Self.ms(20_000), nextDeadline: { controller.nextDeadline }) { event in
            take(controller.handle(event))
            return true
        }
        #expect(controller.isFinished)
        #expect(published.last?.state == .completed)
        let before = published.prefix { $0.state != .sessionSummary }
        #expect(before.count >= 3)
        for state in before { #expect(try Self.lastSession(state) == (hidden ? Self.seededHidden : Self.seeded)) }

        let stored = try #require(try scratch.store.sessionPage(SessionQuery(status: .completed, limit: 1)).sessions.first)
        #expect(stored.sessionID == "0F3A0000-0000-4000-8000-000000000001")
        let score = hidden ? "null" : "100"
        let expected = #"{"date":"\#(stored.startedAt.localDayText)","interval":"10s","interval_seconds":10,"time_acuity_score":\#(score),"results_withheld":false}"#
        let after = published.drop { $0.state != .sessionSummary }
        #expect(after.map(\.state) == [.sessionSummary, .completed])
        for state in after { #expect(try Self.lastSession(state) == expected) }
    }

    @Test("a discarded session leaves the store's newest in place")
    func discardedKeepsTheStoresNewest() throws {
        var context = SessionContext(board: "desktop", pressHint: "press space", soundAudibility: .inaudible(reason: "none"), healthStatus: "on")
        context.lastSession = DeviceState.LastSession(date: "2026-11-18", interval: try TrainingInterval(seconds: 60), timeAcuityScore: 92)
        let controller = SingleSessionController(
            configuration: try SessionConfiguration(mode: .challenge, interval: TrainingInterval(seconds: 10), plannedCount: 3),
            context: context, sessionID: "D")
        var published = Self.states(controller.start(at: Self.ms(0)))
        // The attempt answered, then a long press and another within the window: aborted.
        let holds: [SessionEvent] = [.button(RawButtonEdge(pressed: true, at: Self.ms(13_000))), .button(RawButtonEdge(pressed: false, at: Self.ms(15_500))),
                                     .button(RawButtonEdge(pressed: true, at: Self.ms(16_000))), .button(RawButtonEdge(pressed: false, at: Self.ms(18_500)))]
        EventFeeding.feed(Self.tap(1_000) + Self.tap(11_000) + holds, deadlinesUpTo: Self.ms(30_000), nextDeadline: { controller.nextDeadline }) { event in
            published += Self.states(controller.handle(event))
            return true
        }
        #expect(published.last?.state == .aborted)
        #expect(try Self.lastSession(published.last) == Self.seeded)
    }

    // MARK: The command itself

    /// Runs `chronoception passive` (test interval, many repetitions, the desktop board with standard
    /// input a pipe) over `data`, waits until its state file shows it running, answers that file's
    /// `last_session`, then stops it with SIGTERM and answers the last file's too.
    static func passiveStopped(binary: String, data: String, stateFile: String) throws -> (running: String?, stopped: String?, privacy: String?) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["passive", "--test-interval-ms", "300", "--repetitions", "90", "--board", "desktop",
                             "--state-file", stateFile, "--no-realtime", "--data-dir", data]
        var environment = ProcessInfo.processInfo.environment
        environment["CHRONOCEPTION_TEST_MODE"] = "1"
        environment["CHRONOCEPTION_BOARDS_DIR"] = root.appendingPathComponent("boards").path
        process.environment = environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        func file() -> String? { try? String(contentsOfFile: stateFile, encoding: .utf8) }
        let limit = HardwareClock.monotonicNanoseconds() + 20_000_000_000
        while Self.member("state", in: file()) != #""PassiveRunning""# && process.isRunning && HardwareClock.monotonicNanoseconds() < limit {
            HardwareClock.sleep(untilMonotonicNanoseconds: HardwareClock.monotonicNanoseconds() + 20_000_000)
        }
        let running = file()
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        _ = output.fileHandleForReading.readDataToEndOfFile()
        try? input.fileHandleForWriting.close()
        let stopped = file()
        #expect(Self.member("state", in: running) == #""PassiveRunning""#)
        #expect(Self.member("state", in: stopped) == #""Interrupted""#)
        return (Self.member("last_session", in: running), Self.member("last_session", in: stopped), Self.member("glanceable_privacy", in: stopped))
    }

    @Test("chronoception passive: the file names the store's last completed session while running and once stopped; with privacy on, without its score")
    func theCommandsFile() throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let stateFile = scratch.directory + "/run/state.json"
        // No completed session yet: null, as the daemon's.
        let empty = try Self.passiveStopped(binary: binary, data: scratch.directory, stateFile: stateFile)
        #expect(empty.running == "null" && empty.stopped == "null")

        try Self.seedCompletedChallenge(scratch.store)
        let shown = try Self.passiveStopped(binary: binary, data: scratch.directory, stateFile: stateFile)
        #expect(shown.running == Self.seeded)
        #expect(shown.stopped == Self.seeded)
        #expect(shown.privacy == "false")

        try scratch.set(.glanceablePrivacy, "on")
        let hidden = try Self.passiveStopped(binary: binary, data: scratch.directory, stateFile: stateFile)
        #expect(hidden.running == Self.seededHidden)
        #expect(hidden.stopped == Self.seededHidden)
        #expect(hidden.privacy == "true")
    }

    @Test("chronoception passive run to the end: the file's last_session is that session, as the store lists it")
    func theCommandsCompletedSession() throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        try Self.seedCompletedChallenge(scratch.store)
        let stateFile = scratch.directory + "/run/state.json"
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["passive", "--test-interval-ms", "50", "--repetitions", "2", "--board", "desktop",
                             "--state-file", stateFile, "--no-realtime", "--data-dir", scratch.directory]
        var environment = ProcessInfo.processInfo.environment
        environment["CHRONOCEPTION_TEST_MODE"] = "1"
        environment["CHRONOCEPTION_BOARDS_DIR"] = root.appendingPathComponent("boards").path
        process.environment = environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(process.terminationStatus == 0, "\(text)")
        let file = try? String(contentsOfFile: stateFile, encoding: .utf8)
        #expect(Self.member("state", in: file) == #""Completed""#)
        let stored = try #require(try scratch.store.sessionPage(SessionQuery(status: .completed, limit: 1)).sessions.first)
        #expect(stored.mode == .passive)
        #expect(Self.member("last_session", in: file)
                == #"{"date":"\#(stored.startedAt.localDayText)","interval":"\#(stored.interval)","interval_seconds":0,"time_acuity_score":null,"results_withheld":false}"#)
    }
}
