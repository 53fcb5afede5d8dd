import ChronoTesting
import ChronoCore
import ChronoHardware
import Foundation
import Synchronization
import Testing
@testable import ChronoRuntime

@Suite("The device daemon through the real loop")
struct DaemonLoopTests {
    @Test("Idle tap starts the last configuration, the session runs, the daemon returns to idle; a stop ends it")
    func idleSessionIdle() throws {
        let rig = try DaemonRig(try QuickSession.configuration(.challenge, count: 1))
        let harness = rig.harness
        harness.start()
        try harness.waitForLine("Ready. Tap")
        harness.tap()
        try harness.waitForLine("Attempt 1 of 1: press space to start.")
        harness.tap()
        try harness.waitForLine("Attempt 1 of 1: started.")
        harness.tap(afterMilliseconds: 300)
        try harness.waitForLine("Idle. Tap to start challenge")
        // Long press in idle: the first preset is offered with its pattern.
        harness.tap(holdMilliseconds: 500)
        try harness.waitForLine("Preset ")
        harness.loop.stopper.stop(reason: "shutdown")
        let report = try harness.finish()
        #expect(report.ending == .stopped(reason: "shutdown"))
        #expect(harness.recorder.finished.map(\.outcome.status) == [.completed])
        #expect(harness.motor.endedOff)
        // One snapshot before the loop, one after the start record, one after the finish record.
        #expect(rig.library.counts.snapshots >= 3)
    }

    @Test("A stop during a session interrupts it")
    func stopDuringSession() throws {
        let rig = try DaemonRig(try QuickSession.configuration(.passive, intervalMilliseconds: 300, count: 50))
        let harness = rig.harness
        harness.start()
        try harness.waitForLine("Ready. Tap")
        harness.tap()
        try harness.waitForLine("Boundary 1 of 50.")
        harness.loop.stopper.stop(reason: "shutdown")
        _ = try harness.finish()
        #expect(harness.recorder.finished.map(\.outcome.status) == [.interrupted])
        #expect(harness.motor.endedOff)
    }

    @Test("A settings change while idle applies to the next session, without a restart")
    func settingsApplyAtTheNextSession() throws {
        let rig = try DaemonRig(try QuickSession.configuration(.challenge, count: 1))
        let harness = rig.harness
        harness.start()
        try harness.waitForLine("Ready. Tap")
        let changed = SessionDefaults(timing: SessionTiming(feedbackDuration: .milliseconds(100), abortConfirmWindow: .milliseconds(900)),
                                      gestures: GestureSettings(debounce: .milliseconds(5), longPress: .milliseconds(700)),
                                      fearThreshold: 0.25, attempts: 1, repetitions: 6)
        rig.library.change(defaults: changed)
        rig.keeper.refresh()  // what the store watcher does when `settings set` commits
        harness.tap()
        try harness.waitForLine("Attempt 1 of 1: press space to start.")
        harness.loop.stopper.stop(reason: "done")
        _ = try harness.finish()
        let started = try #require(harness.recorder.started.first)
        #expect(started.configuration.gestures.longPress == .milliseconds(700))
        #expect(started.configuration.timing.abortConfirmWindow == .milliseconds(900))
        #expect(started.configuration.fearThreshold == 0.25)
    }

    @Test("SIGHUP's reload reaches the library off the loop and does not stop the daemon")
    func hangupReloads() throws {
        let rig = try DaemonRig(try QuickSession.configuration(.challenge, count: 1))
        let harness = rig.harness
        harness.start()
        try harness.waitForLine("Ready. Tap")
        harness.loop.messenger.post(.hangup)
        // The reload runs on the writer thread; the daemon is still there to answer.
        #expect(try harness.ask(.endPassive) == .refused(.nothingRunning))
        harness.loop.stopper.stop(reason: "done")
        _ = try harness.finish()
        #expect(rig.library.counts.reloads == 1)
    }

    @Test("Events: state changes, attempt feedback and the finished session reach a subscriber, off the loop")
    func events() throws {
        let rig = try DaemonRig(try QuickSession.configuration(.challenge, count: 1))
        let harness = rig.harness
        let heard = Mutex<[DeviceEvent]>([])
        let subscription = harness.handle.subscribe { event in heard.withLock { $0.append(event) } }
        // Each event carries when the loop published it, before it was heard; states (one writer
        // delivers them) in the order published.
        let stamps = Mutex<[(published: Int64, heard: Int64, state: Bool)]>([])
        let timed = harness.events.subscribeWithTimes { event, publishedAt in
            let heardAt = MonotonicClock.now().nanoseconds
            var isState = false
            if case .state = event { isState = true }
            stamps.withLock { $0.append((publishedAt.nanoseconds, heardAt, isState)) }
        }
        defer { timed.cancel() }
        harness.start()
        try harness.waitForLine("Ready. Tap")
        // The state is delivered on the writer thread right after the line.
        for _ in 0..<100 where harness.handle.snapshot() == nil { Thread.sleep(forTimeInterval: 0.05) }
        #expect(harness.handle.snapshot()?.state == .idle)
        harness.tap()
        try harness.waitForLine("Attempt 1 of 1: press space to start.")
        harness.tap()
        try harness.waitForLine("Attempt 1 of 1: started.")
        harness.tap(afterMilliseconds: 300)
        try harness.waitForLine("Idle. Tap to start challenge")
        harness.loop.stopper.stop(reason: "done")
        _ = try harness.finish()
        subscription.cancel()
        let events = heard.withLock { $0 }
        let id = try #require(harness.recorder.started.first?.sessionID)
        #expect(events.contains { if case .feedback(let feedback) = $0 { return feedback.sessionID == id && feedback.index == 1 && feedback.count == 1 } else { return false } })
        #expect(events.contains(.sessionFinished(sessionID: id, status: .completed)))
        let states = events.compactMap { if case .state(let state) = $0 { return state.state } else { return nil } }
        #expect(states.first == .idle)
        #expect(states.contains(.attemptRunning))
        #expect(states.last == .stopped)
        let times = stamps.withLock { $0 }
        #expect(times.count == events.count)
        #expect(times.allSatisfy { $0.published > 0 && $0.published <= $0.heard })
        let stateStamps = times.filter(\.state)
        #expect(stateStamps.count >= 3)
        #expect(zip(stateStamps, stateStamps.dropFirst()).allSatisfy { $0.published <= $1.published })
        #expect(harness.events.latestState?.updated != nil)
    }
}

@Suite("Control requests through the daemon handle")
struct DeviceActionTests {
    @Test("Start the last configuration; a second start is refused while it runs; discard ends it aborted")
    func startAndDiscard() throws {
        let rig = try DaemonRig(try QuickSession.configuration(.challenge, count: 2))
        let harness = rig.harness
        harness.start()
        try harness.waitForLine("Ready. Tap")
        #expect(try harness.ask(.discard) == .refused(.nothingRunning))
        guard case .started(let id, let configuration) = try harness.ask(.start(.lastConfiguration)) else {
            Issue.record("not started")
            return
        }
        #expect(configuration.mode == .challenge && configuration.plannedCount == 2)
        #expect(try harness.ask(.start(.lastConfiguration)) == .refused(.sessionRunning(sessionID: id)))
        #expect(try harness.ask(.endPassive) == .refused(.notPassive(.challenge)))
        #expect(try harness.ask(.discard) == .discarded(sessionID: id))
        try harness.waitForLine("Idle. Tap to start")
        harness.loop.stopper.stop(reason: "done")
        _ = try harness.finish()
        #expect(harness.recorder.finished.map(\.outcome.status) == [.aborted])
        #expect(harness.motor.endedOff)
    }

    @Test("Start a preset and an explicit configuration; end a Passive session")
    func presetExplicitAndEnd() throws {
        let rig = try DaemonRig(try QuickSession.configuration(.challenge, count: 1))
        let harness = rig.harness
        harness.start()
        try harness.waitForLine("Ready. Tap")
        let preset = TrainingInterval.testOnly(milliseconds: 250)
        guard case .started(let first, let presetConfiguration) = try harness.ask(.start(.preset(preset))) else {
            Issue.record("preset not started")
            return
        }
        #expect(presetConfiguration.interval == preset && presetConfiguration.mode == .challenge)
        #expect(try harness.ask(.discard) == .discarded(sessionID: first))
        try harness.waitForLine("Idle. Tap to start")
        let interval = TrainingInterval.testOnly(milliseconds: 150)
        guard case .started(let passive, let configuration) = try harness.ask(.start(.explicit(mode: .passive, interval: interval, count: 20))) else {
            Issue.record("passive not started")
            return
        }
        #expect(configuration.mode == .passive && configuration.plannedCount == 20 && configuration.interval == interval)
        try harness.waitForLine("Boundary 1 of 20.")
        #expect(try harness.ask(.endPassive) == .ended(sessionID: passive, status: .completed))
        harness.loop.stopper.stop(reason: "done")
        _ = try harness.finish()
        #expect(harness.recorder.finished.map(\.outcome.status) == [.aborted, .completed])
        #expect(harness.recorder.finished.last?.outcome.repetitionsDone ?? 0 >= 1)
    }

    @Test("Fear without the opt-in is refused with the reason; an invalid count too")
    func refusals() throws {
        let rig = try DaemonRig(try QuickSession.configuration(.challenge, count: 1))
        let harness = rig.harness
        harness.start()
        try harness.waitForLine("Ready. Tap")
        #expect(try harness.ask(.start(.explicit(mode: .fear, interval: .builtInPreset, count: 1))) == .refused(.fearNotOptedIn))
        guard case .refused(.invalidConfiguration(let message)) = try harness.ask(.start(.explicit(mode: .challenge, interval: .builtInPreset, count: 500))) else {
            Issue.record("an out-of-range count was not refused")
            return
        }
        #expect(message.contains("500 attempts is out of range"))
        harness.loop.stopper.stop(reason: "done")
        _ = try harness.finish()
        #expect(harness.recorder.started.isEmpty)
        // After the loop has ended, a request is answered at once: the device is stopping.
        #expect(try harness.ask(.start(.lastConfiguration)) == .refused(.stopping))
    }

    @Test("Pairing: a waiting request blocks no tap, start or discard; a long press in idle approves it; silence expires it")
    func pairing() throws {
        let rig = try DaemonRig(try QuickSession.configuration(.challenge, count: 1))
        let harness = rig.harness
        harness.start()
        try harness.waitForLine("Ready. Tap")
        let anna = PairingRequester(name: "Anna's phone", address: "192.168.1.20")

        let approved = Mutex<DeviceReply?>(nil)
        harness.handle.request(.approvePairing(anna, window: .seconds(20))) { reply in approved.withLock { $0 = reply } }
        try harness.waitForLine(#"Pairing request from "Anna's phone" at 192.168.1.20: to approve, hold the button"#)
        #expect(harness.waitFor { harness.events.latestState?.pairingRequest } == anna)
        // The ordinary tap starts a session, as always; the request waits through it.
        harness.tap()
        try harness.waitForLine("Attempt 1 of 1: press space to start.")
        #expect(harness.events.latestState?.pairingRequest == anna)
        guard case .discarded = try harness.ask(.discard) else {
            Issue.record("a waiting pairing request blocked discard")
            return
        }
        // Back in idle the request is announced again; a start request is not blocked either.
        try harness.waitForLines(#"Pairing request from "Anna's phone""#, count: 2)
        guard case .started = try harness.ask(.start(.lastConfiguration)) else {
            Issue.record("a waiting pairing request blocked start")
            return
        }
        #expect(approved.withLock { $0 } == nil)
        guard case .discarded = try harness.ask(.discard) else {
            Issue.record("not discarded")
            return
        }
        try harness.waitForLines(#"Pairing request from "Anna's phone""#, count: 3)
        harness.tap(holdMilliseconds: 500)
        try harness.waitForLine(#"Pairing approved: "Anna's phone" at 192.168.1.20."#)
        #expect(harness.waitFor { approved.withLock { $0 } } == .pairingApproved)
        #expect(harness.waitFor { harness.events.latestState.flatMap { $0.pairingRequest == nil ? true : nil } } == true)
        #expect(harness.motor.onSpans.count >= 1)

        // Nobody at the device: it expires unapproved.
        #expect(try harness.ask(.approvePairing(anna, window: .milliseconds(200)))
                == .refused(.pairingRefused("no long press within the time given")))
        try harness.waitForLine("expired unapproved.")
        // With nothing waiting a long press browses presets again.
        harness.tap(holdMilliseconds: 500)
        try harness.waitForLine("Preset ")
        harness.loop.stopper.stop(reason: "done")
        _ = try harness.finish()
        // The two sessions (the tap's, the request's) were discarded; no press became anything else.
        #expect(harness.recorder.started.count == 2)
        #expect(harness.recorder.finished.map(\.outcome.status) == [.aborted, .aborted])
    }

    @Test("A single-session command takes no requests")
    func singleSessionRefuses() throws {
        let controller = SingleSessionController(configuration: try QuickSession.configuration(.passive, intervalMilliseconds: 300, count: 50),
                                                 context: QuickSession.context())
        let harness = try LoopHarness(controller: controller)
        harness.start()
        try harness.waitForLine("Passive:")
        #expect(try harness.ask(.start(.lastConfiguration)) == .refused(.notADaemon))
        harness.loop.stopper.stop(reason: "done")
        _ = try harness.finish()
    }
}
