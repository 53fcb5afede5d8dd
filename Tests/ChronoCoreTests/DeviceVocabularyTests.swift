import ChronoCore
import Testing

/// The device's one vocabulary, byte for byte: the state's JSON for the state file and for the API
/// (the members they share, in one order, and what each adds), each event's JSON, and the words and
/// API codes of the device's answers — what the web tier, the fault tier and the control verbs read.
@Suite("Device vocabulary: one JSON, one set of words")
struct DeviceVocabularyTests {
    static let updated = WallTime(unixNanoseconds: 1_795_000_000_002_000_000, utcOffsetSeconds: 0)
    static let id = "3136593B-0000-4000-8000-000000000001"

    static let boundary = WallTime(unixNanoseconds: 1_795_000_030_000_000_000, utcOffsetSeconds: 3600)

    /// A Passive session between boundaries, with a pairing request waiting, the last session named
    /// (a Passive one: no score) and glanceable privacy on: the state file withholds, the API does not.
    static func passiveState() throws -> DeviceState {
        var state = DeviceState(state: .passiveRunning, board: "raspberry-pi-4b", health: "failing: no space")
        state.mode = .passive
        state.interval = try TrainingInterval(seconds: 30)
        state.repetitionsDone = 3
        state.repetitionCount = 6
        state.nextBoundary = boundary
        state.sessionID = "S"
        state.pairingRequest = PairingRequester(name: "Anna's \"phone\"", address: "192.168.1.20")
        state.lastSession = DeviceState.LastSession(date: "2026-11-24", interval: try TrainingInterval(seconds: 600), timeAcuityScore: nil)
        state.glanceablePrivacy = true
        return state.published(at: updated)
    }

    @Test("the API's JSON of a state: the shared members in the state file's order, then session_in_progress and updated; the file's: the same members, then its own")
    func apiAndFileJSON() throws {
        let state = try Self.passiveState()
        let shared = """
            {"version":5,"state":"PassiveRunning","board":"raspberry-pi-4b","mode":"passive","interval":"30s","interval_seconds":30,\
            "attempt":null,"attempt_count":null,"repetitions_done":3,"repetition_count":6,"next_boundary":"\(Self.boundary.iso8601)",\
            "fear_sound":null,"health":"failing: no space","last_feedback":null,"session_id":"S","offered_preset":null,\
            "pairing_request":{"name":"Anna's \\"phone\\"","address":"192.168.1.20"},"next_session":null,"study":null,"today":null,"reminder":null
            """
        #expect(state.apiJSON.compactText == shared + #","session_in_progress":true,"updated":""# + Self.updated.iso8601 + #""}"#)
        #expect(state.stateFileJSON(pid: 7).compactText == shared + """
            ,"last_session":{"date":"2026-11-24","interval":"10m 0s","interval_seconds":600,"time_acuity_score":null,"results_withheld":false},\
            "glanceable_privacy":true,"updated":"\(Self.updated.iso8601)","pid":7}
            """)
    }

    @Test("the API's JSON in idle (next_session, no session in progress) and without a device (no board, no health, never published)")
    func apiJSONIdleAndNoDevice() throws {
        var idle = DeviceState(state: .idle, board: "test", health: "off")
        idle.mode = .passive
        idle.interval = try TrainingInterval(seconds: 15)
        idle.nextSession = DeviceState.NextSession(mode: .passive, interval: try TrainingInterval(seconds: 15), count: 6)
        #expect(idle.published(at: Self.updated).apiJSON.compactText == """
            {"version":5,"state":"Idle","board":"test","mode":"passive","interval":"15s","interval_seconds":15,\
            "attempt":null,"attempt_count":null,"repetitions_done":null,"repetition_count":null,"next_boundary":null,\
            "fear_sound":null,"health":"off","last_feedback":null,"session_id":null,"offered_preset":null,"pairing_request":null,\
            "next_session":{"mode":"passive","interval":"15s","interval_seconds":15,"count":6,"in_study":false},"study":null,"today":null,"reminder":null,\
            "session_in_progress":false,"updated":"\(Self.updated.iso8601)"}
            """)
        #expect(DeviceState(state: .noDevice).apiJSON.compactText == """
            {"version":5,"state":"NoDevice","board":null,"mode":null,"interval":null,"interval_seconds":null,\
            "attempt":null,"attempt_count":null,"repetitions_done":null,"repetition_count":null,"next_boundary":null,\
            "fear_sound":null,"health":null,"last_feedback":null,"session_id":null,"offered_preset":null,"pairing_request":null,\
            "next_session":null,"study":null,"today":null,"reminder":null,"session_in_progress":false,"updated":null}
            """)
    }

    @Test("each event's name and JSON: state, feedback, session_finished")
    func events() throws {
        let state = try Self.passiveState()
        #expect(DeviceEvent.state(state).name == "state")
        #expect(DeviceEvent.state(state).json == state.apiJSON)
        let feedback = DeviceEvent.feedback(DeviceFeedback(sessionID: "S", index: 2, count: 5, text: "late by 1.2 s (2 %)", zone: .green))
        #expect(feedback.name == "feedback")
        #expect(feedback.json.compactText == #"{"session_id":"S","index":2,"count":5,"text":"late by 1.2 s (2 %)","zone":"green"}"#)
        let finished = DeviceEvent.sessionFinished(sessionID: "S", status: .aborted)
        #expect(finished.name == "session_finished")
        #expect(finished.json.compactText == #"{"session_id":"S","status":"aborted","recorded":true}"#)
        let nothing = DeviceEvent.sessionFinished(sessionID: "S", status: .aborted, recorded: false)
        #expect(nothing.json.compactText == #"{"session_id":"S","status":"aborted","recorded":false}"#)
    }

    @Test("session_in_progress: the session's phases, its summary included; never idle, ended, stopped or without a device")
    func sessionInProgress() {
        let running = DeviceState.Name.allCases.filter(\.isSessionPhase)
        #expect(running == [.presenting, .waitingForStart, .attemptRunning, .feedbackFlash, .passiveRunning, .sessionSummary])
    }

    @Test("in the summary window: discard and end are nothing_running saying the session is already saved; start is busy for a moment, never 'already running'")
    func summaryWindowWords() {
        let id = Self.id
        let discard = DeviceRefusal.sessionAlreadySaved(sessionID: id, status: .completed, discard: true)
        #expect(discard.code == .nothingRunning)
        #expect(DeviceReply.refused(discard).message == "Nothing to discard: the session that just ended (\(id)) is already saved as completed.")
        let end = DeviceRefusal.sessionAlreadySaved(sessionID: id, status: .completed, discard: false)
        #expect(end.code == .nothingRunning)
        #expect(end.description == "Nothing to end: the session that just ended (\(id)) is already saved as completed.")
        #expect(DeviceRefusal.sessionJustEnded(sessionID: id).code == .busy)
        #expect(DeviceRefusal.sessionJustEnded(sessionID: id).description
                == "The session that just ended (\(id)) is saved and the device is showing its summary; start again in a moment.")
        // A running session is still refused as running.
        #expect(DeviceRefusal.sessionRunning(sessionID: id).code == .sessionRunning)
        #expect(DeviceRefusal.sessionRunning(sessionID: id).description == "A session is already running (\(id)); end or discard it first.")
    }

    @Test("every refusal's API code, as the API has always answered it")
    func refusalCodes() {
        let codes: [(DeviceRefusal, String)] = [
            (.sessionRunning(sessionID: "S"), "session_running"),
            (.nothingRunning, "nothing_running"),
            (.sessionJustEnded(sessionID: "S"), "busy"),
            (.sessionAlreadySaved(sessionID: "S", status: .completed, discard: true), "nothing_running"),
            (.notPassive(.challenge), "not_passive"),
            (.fearNotOptedIn, "fear_not_enabled"),
            (.consentNeeded(protocolName: "sleep-2026"), "consent_needed"),
            (.invalidConfiguration("bad"), "invalid_configuration"),
            (.pairingQueueFull, "busy"),
            (.pairingRefused("no long press within the time given"), "pairing_not_approved"),
            (.stopping, "busy"),
            (.waitingForButton, "busy"),
            (.notADaemon, "no_device"),
            (.noDevice, "no_device"),
            (.noDeviceToPair, "no_device"),
        ]
        for (refusal, code) in codes { #expect(refusal.code.rawValue == code, "\(refusal)") }
    }

    @Test("the answers in words: what the API's message and `chronoception start/end/discard` say")
    func replyWords() throws {
        let id = Self.id
        let configuration = try SessionConfiguration(mode: .challenge, interval: TrainingInterval(seconds: 15), plannedCount: 2)
        #expect(DeviceReply.started(sessionID: id, configuration: configuration).message == "Started a challenge session at 15s (\(id)).")
        #expect(DeviceReply.ended(sessionID: id, status: .completed).message == "Ended the Passive session \(id): completed.")
        #expect(DeviceReply.discarded(sessionID: id).message == "Discarded the session \(id); it is not logged.")
        #expect(DeviceReply.pairingApproved.message == "Approved on the device (a long press).")
        #expect(DeviceReply.refused(.pairingRefused("no long press within the time given")).message
                == "Pairing refused: no long press within the time given.")
        #expect(DeviceReply.refused(.waitingForButton).message == "The device is waiting for its button to be connected; try again when it is back.")
        #expect(DeviceReply.refused(.noDevice).message
                == "No device is attached to this companion (it serves a data directory only). Control a session on the device running `chronoception run`.")
        #expect(DeviceReply.refused(.noDeviceToPair).message
                == "There is no device button here to approve pairing. Make a key with `chronoception companion keys add NAME`, or open the login URL `chronoception companion` printed.")
    }
}
