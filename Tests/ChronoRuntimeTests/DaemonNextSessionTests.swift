import ChronoCore
import ChronoTesting
import Synchronization
import Testing
@testable import ChronoRuntime

/// What the daemon says it will start (`next_session`) against what it starts, and the requests in the
/// summary window after a session ends, in the daemon's own controller on a virtual clock.
@Suite("The daemon's next session and its summary window, on a virtual clock")
struct DaemonNextSessionTests {
    static func ms(_ value: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: value * 1_000_000) }

    static func snapshot(_ next: SessionConfiguration, lastSessionID: String? = nil, fearAllowed: Bool = false) -> DeviceSnapshot {
        DeviceSnapshot(nextConfiguration: next, lastSessionID: lastSessionID, presets: [next.interval], patterns: IntervalPatternBook(),
                       defaults: SessionDefaults(timing: next.timing, gestures: next.gestures, attempts: 1, repetitions: 6),
                       healthStatus: "on", fearAllowed: fearAllowed)
    }

    typealias Rig = ControllerRig

    static func next(_ configuration: SessionConfiguration) -> DeviceState.NextSession { DeviceState.NextSession(configuration) }

    @Test("next_session is what a start without a configuration starts: at first, after settings change, and while the snapshot lags the session just run")
    func nextSessionIsWhatStarts() throws {
        let first = try QuickSession.configuration(.passive, intervalMilliseconds: 300, count: 4)
        let library = SettableLibrary(Self.snapshot(first))
        let rig = Rig(library: library)
        #expect(rig.lastState?.state == .idle)
        #expect(rig.lastState?.nextSession == DeviceState.NextSession(mode: .passive, interval: .testOnly(milliseconds: 300), count: 4))

        // The defaults change (as `settings set default-…` would make the store's snapshot say).
        var changed = try QuickSession.configuration(.challenge, count: 2)
        changed.interval = try TrainingInterval(seconds: 15)
        library.set(Self.snapshot(changed))
        rig.settingsChanged(at: Self.ms(100))
        #expect(rig.lastState?.nextSession == DeviceState.NextSession(mode: .challenge, interval: try TrainingInterval(seconds: 15), count: 2))
        #expect(rig.lines.last == "Settings changed. Tap to start challenge 15s ×2; hold to browse presets.")
        let updated = WallTime(unixNanoseconds: 1_795_000_000_002_000_000, utcOffsetSeconds: 0)
        let text = try #require(rig.lastState).published(at: updated).stateFileJSON(pid: 7).compactText
        #expect(text == """
            {"version":5,"state":"Idle","board":"test","mode":"challenge","interval":"15s","interval_seconds":15,\
            "attempt":null,"attempt_count":null,"repetitions_done":null,"repetition_count":null,"next_boundary":null,\
            "fear_sound":null,"health":"on","last_feedback":null,"session_id":null,"offered_preset":null,"pairing_request":null,\
            "next_session":{"mode":"challenge","interval":"15s","interval_seconds":15,"count":2,"in_study":false},"study":null,"today":{"sessions":0,"goal":null,"goal_met":false,"line":"Today: 0 sessions"},"reminder":null,"last_session":null,\
            "glanceable_privacy":false,"updated":"\(updated.iso8601)","pid":7}
            """, "\(text)")

        guard case .started(let id, let started) = rig.ask(.start(.lastConfiguration), at: Self.ms(200)) else {
            Issue.record("not started")
            return
        }
        #expect(Self.next(started) == DeviceState.NextSession(mode: .challenge, interval: try TrainingInterval(seconds: 15), count: 2))
        #expect(rig.lastState?.nextSession == nil, "no next session while one runs")
        #expect(rig.ask(.discard, at: Self.ms(300)) == .discarded(sessionID: id))

        // The library has not caught up with that session (it still offers `changed` with no last
        // session): the daemon repeats what it ran, and says so.
        library.set(Self.snapshot(first))
        rig.settingsChanged(at: Self.ms(400))
        #expect(rig.lastState?.nextSession == Self.next(started))
        guard case .started(_, let again) = rig.ask(.start(.lastConfiguration), at: Self.ms(500)) else {
            Issue.record("not started again")
            return
        }
        #expect(Self.next(again) == Self.next(started))
    }

    @Test("a Fear configuration without the opt-in: next_session says Challenge and a start without a configuration runs Challenge, as a tap does")
    func fearWithoutOptIn() throws {
        let fear = try QuickSession.configuration(.fear, count: 3)
        let rig = Rig(library: SettableLibrary(Self.snapshot(fear, fearAllowed: false)))
        #expect(rig.lastState?.nextSession == DeviceState.NextSession(mode: .challenge, interval: fear.interval, count: 3))
        guard case .started(_, let started) = rig.ask(.start(.lastConfiguration), at: Self.ms(100)) else {
            Issue.record("refused")
            return
        }
        #expect(started.mode == .challenge)
        // Asked for by name, Fear is still refused.
        _ = rig.ask(.discard, at: Self.ms(200))
        #expect(rig.ask(.start(.explicit(mode: .fear, interval: fear.interval, count: 1)), at: Self.ms(300)) == .refused(.fearNotOptedIn))
    }

    @Test("in the summary window after a session ends, discard and end say it is already saved and start says to wait: nothing is discarded, the session stays completed")
    func summaryWindow() throws {
        // Passive 300 ms × 2: boundaries at 400 and 700 ms, completed at 700, the summary until 1,200.
        let passive = try QuickSession.configuration(.passive, intervalMilliseconds: 300, count: 2, feedbackMilliseconds: 500)
        let rig = Rig(library: SettableLibrary(Self.snapshot(passive)))
        #expect(rig.ask(.discard, at: Self.ms(50)) == .refused(.nothingRunning))
        guard case .started(let id, _) = rig.ask(.start(.lastConfiguration), at: Self.ms(100)) else {
            Issue.record("not started")
            return
        }
        #expect(rig.ask(.start(.lastConfiguration), at: Self.ms(150)) == .refused(.sessionRunning(sessionID: id)))
        rig.feed([], until: Self.ms(800))
        #expect(rig.lastState?.state == .sessionSummary)
        #expect(rig.recorder.finished.map(\.outcome.status) == [.completed])

        let discard = rig.ask(.discard, at: Self.ms(800))
        #expect(discard == .refused(.sessionAlreadySaved(sessionID: id, status: .completed, discard: true)))
        #expect(DeviceRefusal.sessionAlreadySaved(sessionID: id, status: .completed, discard: true).description
                == "Nothing to discard: the session that just ended (\(id)) is already saved as completed.")
        #expect(rig.ask(.endPassive, at: Self.ms(850)) == .refused(.sessionAlreadySaved(sessionID: id, status: .completed, discard: false)))
        #expect(DeviceRefusal.sessionAlreadySaved(sessionID: id, status: .completed, discard: false).description
                == "Nothing to end: the session that just ended (\(id)) is already saved as completed.")
        #expect(rig.ask(.start(.lastConfiguration), at: Self.ms(900)) == .refused(.sessionJustEnded(sessionID: id)))
        #expect(DeviceRefusal.sessionJustEnded(sessionID: id).description
                == "The session that just ended (\(id)) is saved and the device is showing its summary; start again in a moment.")
        // Nothing was discarded: no cue, no second record, the same one session completed.
        #expect(!rig.cues.map(\.0).contains("discarded"))
        #expect(rig.recorder.finished.map(\.outcome.status) == [.completed])
        #expect(rig.recorder.started.count == 1)

        // Once the summary is over the device is idle and starts again.
        rig.feed([], until: Self.ms(1_300))
        #expect(rig.lastState?.state == .idle)
        guard case .started(let second, _) = rig.ask(.start(.lastConfiguration), at: Self.ms(1_300)) else {
            Issue.record("not started after the summary")
            return
        }
        #expect(second != id)
        #expect(rig.ask(.discard, at: Self.ms(1_400)) == .discarded(sessionID: second))
        #expect(rig.recorder.finished.map(\.outcome.status) == [.completed, .aborted])
    }
}
