import ChronoCore
import ChronoTesting
import Synchronization
import Testing
@testable import ChronoRuntime

/// The state file with `glanceable-privacy` off and on, byte for byte: on, the feedback and the last
/// session's score are null and the file says why; the daemon re-publishes the moment the switch turns.
@Suite("State file: glanceable privacy")
struct StateFilePrivacyTests {
    static let updated = WallTime(unixNanoseconds: 1_795_000_000_002_000_000, utcOffsetSeconds: 0)

    static func feedbackState(hidden: Bool) throws -> DeviceState {
        var state = DeviceState(state: .feedbackFlash, board: "desktop", health: "on")
        state.mode = .challenge
        state.interval = try TrainingInterval(seconds: 30)
        state.attempt = 2
        state.attemptCount = 5
        state.sessionID = "S"
        state.lastFeedback = "Late by 3s · yellow"
        state.lastSession = DeviceState.LastSession(date: "2026-11-24", interval: try TrainingInterval(seconds: 30), timeAcuityScore: 81)
        state.glanceablePrivacy = hidden
        return state
    }

    @Test("off: the file shows the feedback and the score")
    func off() throws {
        #expect(try Self.feedbackState(hidden: false).published(at: Self.updated).stateFileJSON(pid: 7).compactText == """
            {"version":5,"state":"FeedbackFlash","board":"desktop","mode":"challenge","interval":"30s","interval_seconds":30,\
            "attempt":2,"attempt_count":5,"repetitions_done":null,"repetition_count":null,"next_boundary":null,\
            "fear_sound":null,"health":"on","last_feedback":"Late by 3s · yellow","session_id":"S","offered_preset":null,"pairing_request":null,\
            "next_session":null,"study":null,"today":null,"reminder":null,"last_session":{"date":"2026-11-24","interval":"30s","interval_seconds":30,"time_acuity_score":81,"results_withheld":false},\
            "glanceable_privacy":false,"updated":"\(Self.updated.iso8601)","pid":7}
            """)
    }

    @Test("on: state, mode, interval and counts stay; the feedback and the score are null")
    func on() throws {
        #expect(try Self.feedbackState(hidden: true).published(at: Self.updated).stateFileJSON(pid: 7).compactText == """
            {"version":5,"state":"FeedbackFlash","board":"desktop","mode":"challenge","interval":"30s","interval_seconds":30,\
            "attempt":2,"attempt_count":5,"repetitions_done":null,"repetition_count":null,"next_boundary":null,\
            "fear_sound":null,"health":"on","last_feedback":null,"session_id":"S","offered_preset":null,"pairing_request":null,\
            "next_session":null,"study":null,"today":null,"reminder":null,"last_session":{"date":"2026-11-24","interval":"30s","interval_seconds":30,"time_acuity_score":null,"results_withheld":false},\
            "glanceable_privacy":true,"updated":"\(Self.updated.iso8601)","pid":7}
            """)
    }

    @Test("the daemon: turning the setting on re-publishes the idle state withheld, and off again shows the score")
    func daemonRepublishes() throws {
        let configuration = try QuickSession.configuration(.challenge, count: 2)
        var snapshot = DeviceSnapshot(nextConfiguration: configuration, lastSessionID: nil, presets: [configuration.interval],
                                      patterns: IntervalPatternBook(), defaults: SessionDefaults(), healthStatus: "on", fearAllowed: false,
                                      lastCompleted: DeviceState.LastSession(date: "2026-11-24", interval: configuration.interval, timeAcuityScore: 81))
        let library = SettableLibrary(snapshot)
        let keeper = SnapshotKeeper(library: library)
        let controller = DeviceDaemonController(keeper: keeper, board: "test", pressHint: "press", soundStatus: { .inaudible(reason: "none") })
        var published: [DeviceState] = []
        func take(_ actions: [LoopAction]) {
            for action in actions {
                if case .state(let state) = action { published.append(state) }
                if case .offLoop(let job) = action { job() }
            }
        }
        func lastSession() throws -> JSONValue? { try #require(published.last).published(at: Self.updated).stateFileJSON(pid: 7)["last_session"] }
        take(controller.start(at: MonotonicInstant(nanoseconds: 0)))
        #expect(published.last?.glanceablePrivacy == false)
        #expect(try lastSession()?["time_acuity_score"] == .int(81))
        for (hidden, at) in [(true, 100_000_000), (false, 200_000_000)] as [(Bool, Int64)] {
            snapshot.glanceablePrivacy = hidden
            library.current.withLock { $0 = snapshot }
            keeper.refresh()
            take(controller.receive(.snapshotChanged, at: MonotonicInstant(nanoseconds: at)))
            #expect(published.last?.glanceablePrivacy == hidden)
            #expect(try lastSession()?["time_acuity_score"] == (hidden ? .null : .int(81)))
            #expect(try lastSession()?["date"] == .string("2026-11-24"))
        }
        // Mid-session (a start request): the switch re-publishes the session's state withheld at once.
        take(controller.receive(.request(.start(.lastConfiguration), reply: { _ in }), at: MonotonicInstant(nanoseconds: 300_000_000)))
        #expect(published.last?.state == .waitingForStart)
        let before = published.count
        snapshot.glanceablePrivacy = true
        library.current.withLock { $0 = snapshot }
        keeper.refresh()
        take(controller.receive(.snapshotChanged, at: MonotonicInstant(nanoseconds: 400_000_000)))
        #expect(published.count == before + 1)
        #expect(published.last?.state == .waitingForStart && published.last?.glanceablePrivacy == true)
        #expect(try lastSession()?["time_acuity_score"] == .null)
    }
}
