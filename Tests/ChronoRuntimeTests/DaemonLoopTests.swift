import ChronoTesting
import ChronoCore
import ChronoHardware
import Foundation
import Synchronization
import Testing
@testable import ChronoRuntime

/// The device daemon through the loop on virtual time: taps, requests, snapshots and stops at exact
/// instants. (`KernelLoopTests`: the same daemon on the kernel's wait, in real time.)
@Suite("The device daemon through the loop on virtual time")
struct DaemonLoopTests {
    static func ms(_ value: Int64) -> MonotonicInstant { VirtualHarness.ms(value) }

    @Test("Idle tap starts the last configuration, the session runs, the daemon returns to idle; a stop ends it")
    func idleSessionIdle() throws {
        let rig = try VirtualDaemonRig(try QuickSession.configuration(.challenge, count: 1))
        let harness = rig.harness
        harness.tap(at: Self.ms(500))     // idle: starts the last configuration
        harness.tap(at: Self.ms(1_500))   // the attempt's start
        harness.tap(at: Self.ms(1_900))   // its tap
        harness.tap(at: Self.ms(4_000), holdMilliseconds: 500)  // long press in idle: the first preset
        harness.stop(at: Self.ms(5_000), reason: "shutdown")
        let report = try harness.run()
        #expect(report.ending == .stopped(reason: "shutdown"))
        let lines = harness.lines.all
        #expect(lines.first?.hasPrefix("Ready. Tap") == true)
        let idle = try #require(lines.firstIndex { $0.hasPrefix("Idle. Tap to start challenge") })
        #expect(lines[idle...].contains { $0.hasPrefix("Preset ") })
        let finish = try #require(harness.recorder.finished.first)
        #expect(harness.recorder.finished.map(\.outcome.status) == [.completed])
        #expect(finish.outcome.attempts.map(\.startMark) == [Self.ms(1_500)])
        #expect(finish.outcome.attempts.map(\.tapMark) == [Self.ms(1_900)])
        #expect(harness.motor.endedOff)
        // One snapshot before the loop, one after the start record, one after the finish record.
        #expect(rig.library.counts.snapshots == 3)
    }

    @Test("A stop during a session interrupts it at the stop's instant")
    func stopDuringSession() throws {
        let rig = try VirtualDaemonRig(try QuickSession.configuration(.passive, intervalMilliseconds: 300, count: 50))
        let harness = rig.harness
        harness.tap(at: Self.ms(500))
        harness.stop(at: Self.ms(1_000), reason: "shutdown")
        _ = try harness.run()
        let outcome = try #require(harness.recorder.finished.first?.outcome)
        #expect(outcome.status == .interrupted)
        #expect(outcome.endedAt == Self.ms(1_000))
        #expect(harness.motor.endedOff)
    }

    @Test("A settings change while idle applies to the next session, without a restart")
    func settingsApplyAtTheNextSession() throws {
        let rig = try VirtualDaemonRig(try QuickSession.configuration(.challenge, count: 1))
        let harness = rig.harness
        let changed = SessionDefaults(timing: SessionTiming(feedbackDuration: .milliseconds(100), abortConfirmWindow: .milliseconds(900)),
                                      gestures: GestureSettings(debounce: .milliseconds(5), longPress: .milliseconds(700)),
                                      fearThreshold: 0.25, attempts: 1, repetitions: 6)
        harness.at(Self.ms(100)) {
            rig.library.change(defaults: changed)
            rig.keeper.refresh()  // what the store watcher does when `settings set` commits
        }
        harness.tap(at: Self.ms(500))
        harness.stop(at: Self.ms(1_500))
        _ = try harness.run()
        let started = try #require(harness.recorder.started.first)
        #expect(started.configuration.gestures.longPress == .milliseconds(700))
        #expect(started.configuration.timing.abortConfirmWindow == .milliseconds(900))
        #expect(started.configuration.fearThreshold == 0.25)
    }

    @Test("SIGHUP's reload reaches the library off the loop and does not stop the daemon")
    func hangupReloads() throws {
        let rig = try VirtualDaemonRig(try QuickSession.configuration(.challenge, count: 1))
        let harness = rig.harness
        harness.at(Self.ms(100)) { harness.loop.messenger.post(.hangup) }
        // The reload runs on the records worker; the daemon is still there to answer.
        let answer = harness.ask(.endPassive, at: Self.ms(200))
        harness.stop(at: Self.ms(300))
        #expect(try harness.run().ending == .stopped(reason: "done"))
        #expect(answer.value == .refused(.nothingRunning))
        #expect(rig.library.counts.reloads == 1)
    }

    @Test("Events: state changes, attempt feedback and the finished session reach a subscriber, off the loop, stamped when published")
    func events() throws {
        let rig = try VirtualDaemonRig(try QuickSession.configuration(.challenge, count: 1))
        let harness = rig.harness
        let driver = harness.driver
        let heard = Mutex<[DeviceEvent]>([])
        let subscription = harness.handle.subscribe { event in heard.withLock { $0.append(event) } }
        // Each event carries when the loop published it; the workers run before virtual time moves,
        // so each is heard at that very instant; states (one worker delivers them) in the order published.
        let stamps = Mutex<[(published: MonotonicInstant, heard: MonotonicInstant, state: Bool)]>([])
        let timed = harness.events.subscribeWithTimes { event, publishedAt in
            var isState = false
            if case .state = event { isState = true }
            stamps.withLock { $0.append((publishedAt, driver.now(), isState)) }
        }
        defer { timed.cancel() }
        harness.at(Self.ms(100)) { #expect(harness.handle.snapshot()?.state == .idle) }
        harness.tap(at: Self.ms(500))
        harness.tap(at: Self.ms(1_500))
        harness.tap(at: Self.ms(1_900))
        harness.stop(at: Self.ms(5_000))
        _ = try harness.run()
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
        #expect(times.allSatisfy { $0.published == $0.heard })
        #expect(times.first?.published == .zero)
        #expect(times.last?.published == Self.ms(5_000))
        let stateStamps = times.filter(\.state)
        #expect(stateStamps.count >= 3)
        #expect(zip(stateStamps, stateStamps.dropFirst()).allSatisfy { $0.published <= $1.published })
        #expect(harness.events.latestState?.updated != nil)
    }
}

@Suite("Control requests through the daemon handle, on virtual time")
struct DeviceActionTests {
    static func ms(_ value: Int64) -> MonotonicInstant { VirtualHarness.ms(value) }

    @Test("Start the last configuration; a second start is refused while it runs; discard ends it aborted")
    func startAndDiscard() throws {
        let rig = try VirtualDaemonRig(try QuickSession.configuration(.challenge, count: 2))
        let harness = rig.harness
        let nothing = harness.ask(.discard, at: Self.ms(100))
        let start = harness.ask(.start(.lastConfiguration), at: Self.ms(200))
        let second = harness.ask(.start(.lastConfiguration), at: Self.ms(300))
        let end = harness.ask(.endPassive, at: Self.ms(400))
        let discard = harness.ask(.discard, at: Self.ms(500))
        harness.stop(at: Self.ms(3_000))
        _ = try harness.run()
        #expect(nothing.value == .refused(.nothingRunning))
        guard case .started(let id, let configuration) = start.value else {
            Issue.record("not started: \(String(describing: start.value))")
            return
        }
        #expect(configuration.mode == .challenge && configuration.plannedCount == 2)
        #expect(second.value == .refused(.sessionRunning(sessionID: id)))
        #expect(end.value == .refused(.notPassive(.challenge)))
        #expect(discard.value == .discarded(sessionID: id))
        #expect(harness.lines.all.contains { $0.hasPrefix("Idle. Tap to start") })
        let outcome = try #require(harness.recorder.finished.first?.outcome)
        #expect(harness.recorder.finished.map(\.outcome.status) == [.aborted])
        #expect(outcome.startedAt == Self.ms(200) && outcome.endedAt == Self.ms(500))
        #expect(harness.motor.endedOff)
    }

    @Test("Start a preset and an explicit configuration; end a Passive session")
    func presetExplicitAndEnd() throws {
        let rig = try VirtualDaemonRig(try QuickSession.configuration(.challenge, count: 1))
        let harness = rig.harness
        let preset = TrainingInterval.testOnly(milliseconds: 250)
        let interval = TrainingInterval.testOnly(milliseconds: 150)
        let presetStart = harness.ask(.start(.preset(preset)), at: Self.ms(100))
        let discard = harness.ask(.discard, at: Self.ms(200))
        let passiveStart = harness.ask(.start(.explicit(mode: .passive, interval: interval, count: 20)), at: Self.ms(3_000))
        let end = harness.ask(.endPassive, at: Self.ms(3_250))  // after boundary 1 (3150 ms), before boundary 2
        harness.stop(at: Self.ms(4_000))
        _ = try harness.run()
        guard case .started(let first, let presetConfiguration) = presetStart.value else {
            Issue.record("preset not started: \(String(describing: presetStart.value))")
            return
        }
        #expect(presetConfiguration.interval == preset && presetConfiguration.mode == .challenge)
        #expect(discard.value == .discarded(sessionID: first))
        guard case .started(let passive, let configuration) = passiveStart.value else {
            Issue.record("passive not started: \(String(describing: passiveStart.value))")
            return
        }
        #expect(configuration.mode == .passive && configuration.plannedCount == 20 && configuration.interval == interval)
        #expect(end.value == .ended(sessionID: passive, status: .completed))
        #expect(harness.recorder.finished.map(\.outcome.status) == [.aborted, .completed])
        #expect(harness.recorder.finished.last?.outcome.repetitionsDone == 1)
        #expect(harness.recorder.finished.last?.outcome.endedAt == Self.ms(3_250))
    }

    @Test("A reply comes after the state its request changed is published: the end of a Passive session answers with the session over")
    func replyFollowsTheState() throws {
        let rig = try VirtualDaemonRig(try QuickSession.configuration(.challenge, count: 1))
        let harness = rig.harness
        let interval = TrainingInterval.testOnly(milliseconds: 150)
        harness.ask(.start(.explicit(mode: .passive, interval: interval, count: 20)), at: Self.ms(100))
        // What the API reads beside the reply: the hub's latest state, at the moment the reply arrives.
        let shownAtReply = Mutex<DeviceState.Name?>(nil)
        harness.driver.at(Self.ms(400)) { [handle = harness.handle, events = harness.events] in
            handle.request(.endPassive) { _ in shownAtReply.withLock { $0 = events.latestState?.state } }
        }
        let afterwards = Mutex<DeviceState.Name?>(nil)
        harness.driver.at(Self.ms(401)) { [events = harness.events] in afterwards.withLock { $0 = events.latestState?.state } }
        harness.stop(at: Self.ms(1_000))
        _ = try harness.run()
        #expect(shownAtReply.withLock { $0 } == afterwards.withLock { $0 })
        #expect(shownAtReply.withLock { $0 } == .sessionSummary)
    }

    @Test("published() answers once the state made from a new snapshot is published: the API's read after a store write (a consent decision) shows it")
    func publishedFollowsTheSnapshot() throws {
        let rig = try VirtualDaemonRig(try QuickSession.configuration(.challenge, count: 1))
        let harness = rig.harness
        let shownAtAnswer = Mutex<String?>(nil)
        harness.driver.at(Self.ms(100)) { [handle = harness.handle, events = harness.events] in
            // What DaemonDevice.takeStoreChanges does: the snapshot prepared again, then the barrier.
            rig.library.change(healthStatus: "on: waiting for the clock")
            rig.keeper.refresh()
            handle.published { shownAtAnswer.withLock { $0 = events.latestState?.health } }
        }
        harness.stop(at: Self.ms(1_000))
        _ = try harness.run()
        #expect(shownAtAnswer.withLock { $0 } == "on: waiting for the clock")
        // After the loop has ended, the barrier answers at once.
        let late = Mutex(false)
        harness.handle.published { late.withLock { $0 = true } }
        #expect(late.withLock { $0 })
    }

    @Test("Fear without the opt-in is refused with the reason; an invalid count too")
    func refusals() throws {
        let rig = try VirtualDaemonRig(try QuickSession.configuration(.challenge, count: 1))
        let harness = rig.harness
        let fear = harness.ask(.start(.explicit(mode: .fear, interval: .builtInPreset, count: 1)), at: Self.ms(100))
        let tooMany = harness.ask(.start(.explicit(mode: .challenge, interval: .builtInPreset, count: 500)), at: Self.ms(200))
        harness.stop(at: Self.ms(300))
        _ = try harness.run()
        #expect(fear.value == .refused(.fearNotOptedIn))
        guard case .refused(.invalidConfiguration(let message)) = tooMany.value else {
            Issue.record("an out-of-range count was not refused")
            return
        }
        #expect(message.contains("500 attempts is out of range"))
        #expect(harness.recorder.started.isEmpty)
        // After the loop has ended, a request is answered at once: the device is stopping.
        let late = Answer()
        harness.handle.request(.start(.lastConfiguration)) { late.set($0) }
        #expect(late.value == .refused(.stopping))
    }

    @Test("Pairing: a waiting request blocks no tap, start or discard; a long press in idle approves it; silence expires it")
    func pairing() throws {
        let rig = try VirtualDaemonRig(try QuickSession.configuration(.challenge, count: 1))
        let harness = rig.harness
        let anna = PairingRequester(name: "Anna's phone", address: "192.168.1.20")
        let announcement = #"Pairing request from "Anna's phone" at 192.168.1.20: to approve, hold the button"#

        let approved = harness.ask(.approvePairing(anna, window: .seconds(20)), at: Self.ms(100))
        harness.at(Self.ms(150)) {
            #expect(harness.lines(containing: announcement).count == 1)
            #expect(harness.events.latestState?.pairingRequest == anna)
        }
        // The ordinary tap starts a session, as always; the request waits through it.
        harness.tap(at: Self.ms(500))
        harness.at(Self.ms(700)) {
            #expect(harness.lines.all.contains("Attempt 1 of 1: press space to start."))
            #expect(harness.events.latestState?.pairingRequest == anna)
        }
        let firstDiscard = harness.ask(.discard, at: Self.ms(800))
        // Back in idle the request is announced again; a start request is not blocked either.
        harness.at(Self.ms(2_000)) { #expect(harness.lines(containing: announcement).count == 2) }
        let start = harness.ask(.start(.lastConfiguration), at: Self.ms(2_100))
        harness.at(Self.ms(2_200)) { #expect(approved.value == nil) }
        let secondDiscard = harness.ask(.discard, at: Self.ms(2_300))
        harness.at(Self.ms(4_000)) { #expect(harness.lines(containing: announcement).count == 3) }
        harness.tap(at: Self.ms(4_100), holdMilliseconds: 500)  // approves at 4500 ms
        harness.at(Self.ms(4_600)) {
            #expect(harness.lines.all.contains(#"Pairing approved: "Anna's phone" at 192.168.1.20."#))
            #expect(approved.value == .pairingApproved)
            #expect(harness.events.latestState?.pairingRequest == nil)
        }
        // Nobody at the device: it expires unapproved, exactly at the end of its window.
        let unanswered = harness.ask(.approvePairing(anna, window: .milliseconds(200)), at: Self.ms(5_000))
        harness.at(Self.ms(5_199)) { #expect(unanswered.value == nil) }
        harness.at(Self.ms(5_201)) {
            #expect(unanswered.value == .refused(.pairingRefused("no long press within the time given")))
            #expect(harness.lines.all.last?.hasSuffix("expired unapproved.") == true)
        }
        // With nothing waiting a long press browses presets again.
        harness.tap(at: Self.ms(6_000), holdMilliseconds: 500)
        harness.stop(at: Self.ms(7_000))
        _ = try harness.run()
        guard case .discarded = firstDiscard.value else {
            Issue.record("a waiting pairing request blocked discard")
            return
        }
        guard case .started = start.value, case .discarded = secondDiscard.value else {
            Issue.record("a waiting pairing request blocked start or discard")
            return
        }
        #expect(harness.lines.all.last?.hasPrefix("Preset ") == true)
        #expect(harness.motor.onSpans.count >= 1)
        // The two sessions (the tap's, the request's) were discarded; no press became anything else.
        #expect(harness.recorder.started.count == 2)
        #expect(harness.recorder.finished.map(\.outcome.status) == [.aborted, .aborted])
    }

    @Test("A single-session command takes no requests")
    func singleSessionRefuses() throws {
        let controller = SingleSessionController(configuration: try QuickSession.configuration(.passive, intervalMilliseconds: 300, count: 50),
                                                 context: QuickSession.context())
        let harness = try VirtualHarness(controller: controller)
        let answer = harness.ask(.start(.lastConfiguration), at: Self.ms(100))
        harness.stop(at: Self.ms(200))
        _ = try harness.run()
        #expect(answer.value == .refused(.notADaemon))
    }
}
