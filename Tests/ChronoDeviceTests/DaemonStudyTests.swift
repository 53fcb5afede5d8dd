import ChronoCore
import ChronoHardware
import ChronoRuntime
import ChronoStore
import ChronoTesting
import Foundation
import Synchronization
import Testing
@testable import ChronoDevice

/// The daemon running an assigned study over the product's store adapters, on virtual time whose wall
/// clock starts at a chosen study day (days pass in microseconds): what an idle tap starts, the presets
/// outside the study, the study line, the withheld block's hidden results and their reveal, and a
/// restart. No collector is involved at all: the device runs the protocol from what its store keeps.
@Suite("The daemon runs the assigned study", .serialized)
struct DaemonStudyTests {
    static func ms(_ value: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: value * 1_000_000) }
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 24 * hour

    /// One daemon process over `store`, whose virtual instant 0 is the wall-clock `base` (UTC).
    final class Daemon {
        let library: StoreDeviceLibrary
        let recorder: StoreSessionRecorder
        let keeper: SnapshotKeeper
        let controller: DeviceDaemonController
        let lines = RecordingLines()
        /// The virtual instant the loop is at (what the wall clock pairs with).
        final class Now: Sendable {
            let instant = Mutex(MonotonicInstant.zero)
        }
        let now = Now()
        let delivery: LoopActionDelivery
        var actions: [LoopAction] { delivery.actions }

        init(_ store: ChronoStore, base: Int64, at start: MonotonicInstant = .zero) throws {
            library = StoreDeviceLibrary(store: store, flags: SessionFlags(), board: try BoardCatalog.standard().load("desktop"), report: { _ in })
            recorder = StoreSessionRecorder(store: store, report: { _ in })
            keeper = SnapshotKeeper(library: library)
            controller = DeviceDaemonController(keeper: keeper, board: "desktop", pressHint: "press space",
                                                soundStatus: { .inaudible(reason: "none") })
            delivery = LoopActionDelivery(recorders: [recorder, library], lines: lines)
            now.instant.withLock { $0 = start }
            let clock = now
            controller.wallClock = {
                let instant = clock.instant.withLock { $0 }
                return WallClockAnchor(unixNanoseconds: base + instant.nanoseconds, monotonic: instant, utcOffsetSeconds: 0)
            }
            take(controller.start(at: start))
        }

        /// Delivered as `run`'s writer does (`LoopActionDelivery`, shared with DaemonRestartTests).
        func take(_ batch: [LoopAction]) {
            if delivery.deliver(batch) { take(controller.receive(.snapshotChanged, at: now.instant.withLock { $0 })) }
        }

        func feed(_ inputs: [SessionEvent], until end: MonotonicInstant) {
            EventFeeding.feed(inputs, deadlinesUpTo: end, nextDeadline: { controller.nextDeadline }) { event in
                now.instant.withLock { $0 = event.instant }
                take(controller.handle(event))
                return true
            }
        }

        var starts: [SessionStartRecord] {
            actions.compactMap { if case .sessionStarted(let record) = $0 { return record } else { return nil } }
        }
        var finishes: [SessionFinishRecord] {
            actions.compactMap { if case .sessionFinished(let record) = $0 { return record } else { return nil } }
        }
        var states: [DeviceState] { actions.compactMap { if case .state(let s) = $0 { return s } else { return nil } } }
        var lastState: DeviceState? { states.last }
        var feedbackEvents: Int { actions.count { if case .event(.feedback) = $0 { return true } else { return false } } }
    }

    static func tap(_ at: Int64, hold: Int64 = 60) -> [SessionEvent] {
        [.button(RawButtonEdge(pressed: true, at: ms(at))), .button(RawButtonEdge(pressed: false, at: ms(at + hold)))]
    }

    /// A Challenge 10s ×2 from an idle tap at `from`: each attempt started 1 s after it may be and
    /// answered exactly 10 s later.
    static func runTwoAttempts(_ daemon: Daemon, from: Int64) {
        daemon.feed(tap(from) + tap(from + 1_000) + tap(from + 11_000) + tap(from + 13_000) + tap(from + 23_000), until: ms(from + 40_000))
    }

    /// What `chronoception status` prints for the daemon's last state file.
    static func statusLines(_ daemon: Daemon) -> [String] {
        guard let file = daemon.lastState?.published(at: WallTime(unixNanoseconds: 0, utcOffsetSeconds: 0)).stateFileJSON(pid: getpid()),
              let object = try? JSONSerialization.jsonObject(with: Data(file.compactText.utf8)) as? [String: Any] else { return [] }
        return StateFileText.lines(object)
    }

    static func described(_ next: DeviceState.NextSession?) -> String {
        next.map { "\($0.mode.rawValue) \($0.interval) ×\($0.count)\($0.inStudy ? " in study" : "")" } ?? "none"
    }

    /// A store with the fixture's study assigned and the person's own defaults (Passive 15s ×2) set
    /// an hour before now.
    static func storeWithStudy() throws -> ScratchStore {
        let scratch = try ScratchStore()
        try scratch.store.keepStudyAssignment(StudyFixture.synced, nowUnixNanoseconds: StudyFixture.startUnixNanoseconds)
        let before = Int64(Date().timeIntervalSince1970) - 3_600
        try scratch.store.setSetting(.defaultMode, to: "passive", nowUnixSeconds: before)
        try scratch.store.setSetting(.defaultInterval, to: "15s", nowUnixSeconds: before)
        try scratch.store.setSetting(.defaultRepetitions, to: "2", nowUnixSeconds: before)
        return scratch
    }

    /// Day `day` of the study (from 0) at `hour`:00 UTC.
    static func base(day: Int64, hour h: Int64) -> Int64 {
        StudyFixture.startUnixNanoseconds + (day * Self.day + h * hour) * 1_000_000
    }

    @Test("the idle tap starts the next due planned session with its tag; then the person's own; the line and the tap follow the days; a restart goes on from the store")
    func tapFollowsThePlan() throws {
        let scratch = try Self.storeWithStudy()
        defer { scratch.remove() }
        let daemon = try Daemon(scratch.store, base: Self.base(day: 0, hour: 9))
        #expect(daemon.lastState?.study?.text == "Study sleep-2026 · day 1 · session 1 of 2 · due now")
        #expect(Self.described(daemon.lastState?.nextSession) == "challenge 10s ×2 in study")

        Self.runTwoAttempts(daemon, from: 100)
        let plan = StudyFixture.assignment.plan
        #expect(daemon.starts.map(\.study) == [plan.tag(for: plan.sessions[0])])
        #expect(daemon.starts.first?.configuration.feedback == .shown)
        let stored = try scratch.store.sessionPage(SessionQuery(status: .completed, limit: 5)).sessions
        #expect(stored.count == 1)
        #expect(try scratch.store.session(id: stored[0].sessionID).study?.planPosition == 0)
        // Ended at 09:00:23: the next one is due an hour later, rounded up to the minute.
        #expect(daemon.lastState?.state == .idle)
        #expect(daemon.lastState?.study?.text == "Study sleep-2026 · day 1 · session 2 of 2 · next due 10:01")
        #expect(Self.described(daemon.lastState?.nextSession) == "passive 15s ×2")
        // The score of a block with feedback is shown.
        #expect(daemon.lastState?.lastSession?.timeAcuityScore == 100)
        // `chronoception status` prints the state file's line as it is.
        #expect(Self.statusLines(daemon).contains("Study sleep-2026 · day 1 · session 2 of 2 · next due 10:01"))

        // A long press while a study runs: the presets, marked as outside the study.
        daemon.feed(Self.tap(50_000, hold: 1_500), until: Self.ms(52_000))
        #expect(daemon.lines.all.contains { $0.hasPrefix("Preset 15s (outside the study): tap to start it") }, "\(daemon.lines.all)")
        daemon.feed([], until: Self.ms(70_000))

        // A restart: the same line from the store.
        let restarted = try Daemon(scratch.store, base: Self.base(day: 0, hour: 9), at: Self.ms(80_000))
        #expect(restarted.lastState?.study?.text == "Study sleep-2026 · day 1 · session 2 of 2 · next due 10:01")
        // Time passes with nothing pressed: at 10:01 the state says the session is due, and a tap starts it.
        restarted.feed([], until: Self.ms(Self.hour + 60_000))
        #expect(restarted.lastState?.study?.text == "Study sleep-2026 · day 1 · session 2 of 2 · due now")
        #expect(Self.described(restarted.lastState?.nextSession) == "challenge 10s ×2 in study")
        // A day passes: the second session was missed; day 2's first is due (withheld feedback).
        restarted.feed([], until: Self.ms(Self.day))
        #expect(restarted.lastState?.study?.text == "Study sleep-2026 · day 2 · session 1 of 2 · due now")
        #expect(restarted.lastState?.study?.missed == 1)
        restarted.feed(Self.tap(Self.day + 100), until: Self.ms(Self.day + 500))
        #expect(restarted.starts.map(\.study?.planPosition) == [2])
        #expect(restarted.starts.first?.configuration.feedback == .withheld)
    }

    @Test("an assignment that arrives while the daemon runs (the pusher keeps it; the watcher refreshes the snapshot) applies at once; removed, the tap is the person's own again")
    func arrivesWhileRunning() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let daemon = try Daemon(scratch.store, base: Self.base(day: 0, hour: 9))
        #expect(daemon.lastState?.study == nil)
        #expect(daemon.lastState?.nextSession?.inStudy == false)
        try scratch.store.keepStudyAssignment(StudyFixture.synced, nowUnixNanoseconds: StudyFixture.startUnixNanoseconds)
        let keeper = daemon.keeper
        daemon.take([.offLoop { keeper.refresh() }])
        #expect(daemon.lastState?.study?.text == "Study sleep-2026 · day 1 · session 1 of 2 · due now")
        #expect(daemon.lastState?.nextSession?.inStudy == true)
        try scratch.store.removeStudyAssignment()
        daemon.take([.offLoop { keeper.refresh() }])
        #expect(daemon.lastState?.study == nil)
        #expect(daemon.lastState?.nextSession?.inStudy == false)
    }

    @Test("a withheld block: no feedback and no score while it runs, the score withheld until its last session ends, then shown; a sealed block never")
    func withheldBlock() throws {
        let scratch = try Self.storeWithStudy()
        defer { scratch.remove() }
        // Day 2 (index 1) at 09:00: day 1's sessions were missed; the blind block is due.
        let daemon = try Daemon(scratch.store, base: Self.base(day: 1, hour: 9))
        Self.runTwoAttempts(daemon, from: 100)
        #expect(daemon.starts.map(\.study?.planPosition) == [2])
        #expect(daemon.feedbackEvents == 0)
        #expect(daemon.states.allSatisfy { $0.lastFeedback == nil })
        #expect(daemon.lines.all.contains("Attempt 1 of 2: recorded."), "\(daemon.lines.all)")
        let withheld = try #require(daemon.lastState?.lastSession)
        #expect(withheld.timeAcuityScore == nil && withheld.resultsWithheld)
        #expect(daemon.lastState?.published(at: WallTime(unixNanoseconds: 0, utcOffsetSeconds: 0)).stateFileJSON(pid: 1)["last_session"]?["results_withheld"] == .bool(true))
        #expect(Self.statusLines(daemon).contains("Last session: results withheld (a study block without feedback)"))
        #expect(!Self.statusLines(daemon).contains { $0.hasPrefix("Last feedback") })
        // The block's second session, an hour later: the block has ended, its results are shown.
        Self.runTwoAttempts(daemon, from: Self.hour + 60_000)
        #expect(daemon.starts.map(\.study?.planPosition) == [2, 3])
        let revealed = try #require(daemon.lastState?.lastSession)
        #expect(revealed.timeAcuityScore == 100 && !revealed.resultsWithheld)
        // The records as they finished (what the JSON line and the health record follow): the first
        // withheld, the block's last not.
        #expect(daemon.finishes.map(\.resultsWithheld) == [true, false])
        // A new process on the same store shows it too.
        let restarted = try Daemon(scratch.store, base: Self.base(day: 1, hour: 9), at: Self.ms(Self.hour + 100_000))
        #expect(restarted.lastState?.lastSession?.timeAcuityScore == 100)

        // Day 3: the sealed block (one attempt each), never revealed on the device.
        restarted.feed([], until: Self.ms(Self.day))
        let start = Self.day + 100
        restarted.feed(Self.tap(start) + Self.tap(start + 1_000) + Self.tap(start + 11_000), until: Self.ms(start + 30_000))
        let second = start + Self.hour + 60_000
        restarted.feed(Self.tap(second) + Self.tap(second + 1_000) + Self.tap(second + 11_000), until: Self.ms(second + 30_000))
        #expect(restarted.starts.map(\.study?.planPosition) == [4, 5])
        #expect(restarted.lastState?.study?.text == "Study sleep-2026 · finished · 4 of 6 done")
        #expect(restarted.lastState?.lastSession?.resultsWithheld == true)
        #expect(restarted.lastState?.lastSession?.timeAcuityScore == nil)
        #expect(restarted.finishes.map(\.resultsWithheld) == [true, true])
        // Finished: the tap is the person's own again.
        #expect(Self.described(restarted.lastState?.nextSession) == "passive 15s ×2")
    }
}
