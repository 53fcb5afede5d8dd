import ChronoCore
import ChronoHardware
import ChronoRuntime
import ChronoStore
import ChronoTesting
import Foundation
import Synchronization
import Testing
@testable import ChronoDevice

/// The daemon's controller over the product's store adapters (`StoreDeviceLibrary`,
/// `StoreSessionRecorder`) on a virtual clock: what the state says about the last and the next
/// session, and what an idle tap starts, across a restart (a fresh library, keeper and controller on
/// the same store, as `run` builds them).
@Suite("The daemon over the store, across a restart", .serialized)
struct DaemonRestartTests {
    static func ms(_ value: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: value * 1_000_000) }

    /// One daemon process's worth: library, recorder, keeper, controller. Records go to the store and
    /// then to the library, off-loop jobs run in order, as the writer thread runs them.
    final class Daemon {
        let library: StoreDeviceLibrary
        let recorder: StoreSessionRecorder
        let keeper: SnapshotKeeper
        let controller: DeviceDaemonController
        let delivery: LoopActionDelivery
        var actions: [LoopAction] { delivery.actions }

        init(_ store: ChronoStore, at start: MonotonicInstant = .zero) throws {
            library = StoreDeviceLibrary(store: store, flags: SessionFlags(), board: try BoardCatalog.standard().load("desktop"), report: { _ in })
            recorder = StoreSessionRecorder(store: store, report: { _ in })
            keeper = SnapshotKeeper(library: library)
            controller = DeviceDaemonController(keeper: keeper, board: "desktop", pressHint: "press space",
                                                soundStatus: { .inaudible(reason: "none") })
            delivery = LoopActionDelivery(recorders: [recorder, library])
            take(controller.start(at: start))
        }

        /// Delivered as `run`'s writer does (`LoopActionDelivery`, shared with DaemonStudyTests); the
        /// keeper wakes the loop after a refresh (its messenger, in `run`).
        func take(_ batch: [LoopAction]) {
            if delivery.deliver(batch), let instant = lastInstant { take(controller.receive(.snapshotChanged, at: instant)) }
        }

        private var lastInstant: MonotonicInstant?

        /// Button edges and every deadline up to `end`.
        func feed(_ inputs: [SessionEvent], until end: MonotonicInstant) {
            EventFeeding.feed(inputs, deadlinesUpTo: end, nextDeadline: { controller.nextDeadline }) { event in
                lastInstant = event.instant
                take(controller.handle(event))
                return true
            }
        }

        var started: [SessionConfiguration] {
            actions.compactMap { if case .sessionStarted(let record) = $0 { return record.configuration } else { return nil } }
        }
        var lastState: DeviceState? {
            actions.last { if case .state = $0 { return true } else { return false } }.flatMap { if case .state(let s) = $0 { return s } else { return nil } }
        }
        var lastFile: JSONValue? { lastState?.published(at: WallTime(unixNanoseconds: 0, utcOffsetSeconds: 0)).stateFileJSON(pid: 1) }
    }

    static func tap(_ at: Int64) -> [SessionEvent] {
        [.button(RawButtonEdge(pressed: true, at: ms(at))), .button(RawButtonEdge(pressed: false, at: ms(at + 60)))]
    }

    /// Challenge 10s ×1 from the defaults, run to the end by taps: the attempt started at 1 s and
    /// answered exactly 10 s later (no error).
    static func runOneChallenge(_ daemon: Daemon, from: Int64) {
        daemon.feed(tap(from) + tap(from + 1_000) + tap(from + 11_000), until: ms(from + 20_000))
    }

    static func nowSeconds() -> Int64 { Int64(Date().timeIntervalSince1970) }

    /// The defaults every test here starts from — Challenge 10s ×1 — set an hour before the daemon
    /// runs, so they count as older than its first session.
    static func setChallenge10sDefaultsAnHourAgo(_ store: ChronoStore) throws {
        let before = nowSeconds() - 3_600
        try store.setSetting(.defaultInterval, to: "10s", nowUnixSeconds: before)
        try store.setSetting(.defaultAttempts, to: "1", nowUnixSeconds: before)
    }

    @Test("the state carries the last completed session from the store: at start, and after each completed session (exact JSON)")
    func lastSessionInTheState() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        try Self.setChallenge10sDefaultsAnHourAgo(scratch.store)
        let first = try Daemon(scratch.store)
        #expect(first.lastFile?["last_session"]?.compactText == "null")
        Self.runOneChallenge(first, from: 100)
        #expect(first.started.map { "\($0.mode.rawValue) \($0.interval) ×\($0.plannedCount)" } == ["challenge 10s ×1"])
        #expect(first.lastState?.state == .idle)
        let day = try #require(try scratch.store.sessionPage(SessionQuery(status: .completed, limit: 1)).sessions.first).startedAt.localDayText
        let expected = #"{"date":"\#(day)","interval":"10s","interval_seconds":10,"time_acuity_score":100,"results_withheld":false}"#
        #expect(first.lastFile?["last_session"]?.compactText == expected)
        // The summary already names the session it summarises (the runner's, before the store's
        // snapshot has caught up), and so does every state from then on.
        let states = first.actions.compactMap { if case .state(let s) = $0 { return s } else { return nil } }
        let fromSummary = try #require(states.firstIndex { $0.state == .sessionSummary })
        let shown = states[fromSummary...].map { $0.published(at: WallTime(unixNanoseconds: 0, utcOffsetSeconds: 0)).stateFileJSON(pid: 1)["last_session"]?.compactText }
        #expect(shown.allSatisfy { $0 == expected }, "\(shown)")

        // A new process on the same store says it in its first state.
        let second = try Daemon(scratch.store)
        #expect(second.lastFile?["last_session"]?.compactText == expected)
    }

    @Test("defaults changed after the last session survive a restart: next_session names them and the next tap starts them")
    func defaultsSurviveRestart() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        try Self.setChallenge10sDefaultsAnHourAgo(scratch.store)
        let first = try Daemon(scratch.store)
        Self.runOneChallenge(first, from: 100)
        // After the session (its start is now): Passive 15s ×2 becomes the default.
        let after = Self.nowSeconds() + 60
        try scratch.store.setSetting(.defaultMode, to: "passive", nowUnixSeconds: after)
        try scratch.store.setSetting(.defaultInterval, to: "15s", nowUnixSeconds: after)
        try scratch.store.setSetting(.defaultRepetitions, to: "2", nowUnixSeconds: after)

        // The restart: nothing in memory remembers the change.
        let restarted = try Daemon(scratch.store)
        #expect(restarted.lastFile?["next_session"]?.compactText == #"{"mode":"passive","interval":"15s","interval_seconds":15,"count":2,"in_study":false}"#)
        restarted.feed(Self.tap(100), until: Self.ms(200))
        #expect(restarted.started.map { "\($0.mode.rawValue) \($0.interval) ×\($0.plannedCount)" } == ["passive 15s ×2"])
        restarted.feed([], until: Self.ms(40_000))
        // That session is now the last one: the tap after it repeats it (and after another restart).
        #expect(restarted.lastFile?["next_session"]?.compactText == #"{"mode":"passive","interval":"15s","interval_seconds":15,"count":2,"in_study":false}"#)
        let again = try Daemon(scratch.store)
        #expect(again.lastFile?["next_session"]?.compactText == #"{"mode":"passive","interval":"15s","interval_seconds":15,"count":2,"in_study":false}"#)
    }

    @Test("without a change since the last session a restart repeats that session, whatever the defaults say")
    func unchangedDefaultsRepeatTheLastSession() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        try Self.setChallenge10sDefaultsAnHourAgo(scratch.store)
        let first = try Daemon(scratch.store)
        // Started by request with its own configuration: Challenge 20s ×3, not the defaults.
        let reply = Mutex<DeviceReply?>(nil)
        first.take(first.controller.receive(.request(.start(.explicit(mode: .challenge, interval: try TrainingInterval(seconds: 20), count: 3)),
                                                     reply: { answer in reply.withLock { $0 = answer } }), at: Self.ms(100)))
        guard case .started = reply.withLock({ $0 }) else {
            Issue.record("not started")
            return
        }
        let restarted = try Daemon(scratch.store)
        #expect(restarted.lastFile?["next_session"]?.compactText == #"{"mode":"challenge","interval":"20s","interval_seconds":20,"count":3,"in_study":false}"#)
        restarted.feed(Self.tap(100), until: Self.ms(200))
        #expect(restarted.started.map { "\($0.mode.rawValue) \($0.interval) ×\($0.plannedCount)" } == ["challenge 20s ×3"])
    }
}
