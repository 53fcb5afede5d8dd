@testable import ChronoAPI
import ChronoCore
import ChronoTesting
import Foundation
import Testing

/// The device vocabulary on the wire, byte for byte: the `device` member of `GET /device` is the
/// state's one API JSON, each live event is one SSE message with its name and that JSON, and a refused
/// action answers the refusal's code and words with the status it has always had.
@Suite("Device vocabulary on the wire")
struct DeviceWireTests {
    static let updated = WallTime(unixNanoseconds: 1_795_000_000_002_000_000, utcOffsetSeconds: 0)

    static func running() throws -> DeviceState {
        var state = DeviceState(state: .attemptRunning, board: "desktop", health: "on")
        state.mode = .challenge
        state.interval = try TrainingInterval(seconds: 60)
        state.attempt = 1
        state.attemptCount = 3
        state.sessionID = "FAKE-1"
        return state.published(at: updated)
    }

    @Test("each event as one Server-Sent Events message: state, feedback, session_finished")
    func serverSentEvents() throws {
        #expect(DeviceEvent.state(try Self.running()).serverSentEvent == """
            event: state
            data: {"version":5,"state":"AttemptRunning","board":"desktop","mode":"challenge","interval":"1m 0s","interval_seconds":60,\
            "attempt":1,"attempt_count":3,"repetitions_done":null,"repetition_count":null,"next_boundary":null,"fear_sound":null,\
            "health":"on","last_feedback":null,"session_id":"FAKE-1","offered_preset":null,"pairing_request":null,"next_session":null,"study":null,"today":null,"reminder":null,\
            "session_in_progress":true,"updated":"\(Self.updated.iso8601)"}


            """)
        let feedback = DeviceEvent.feedback(DeviceFeedback(sessionID: "FAKE-1", index: 1, count: 3, text: "early by 2.0 s (3 %)", zone: .green))
        #expect(feedback.serverSentEvent
                == "event: feedback\ndata: {\"session_id\":\"FAKE-1\",\"index\":1,\"count\":3,\"text\":\"early by 2.0 s (3 %)\",\"zone\":\"green\"}\n\n")
        #expect(DeviceEvent.sessionFinished(sessionID: "FAKE-1", status: .completed).serverSentEvent
                == "event: session_finished\ndata: {\"session_id\":\"FAKE-1\",\"status\":\"completed\",\"recorded\":true}\n\n")
    }

    @Test("GET /device serves the state's API JSON as `device`; without a device, NoDevice's")
    func deviceMember() async throws {
        let state = try Self.running()
        try await APIHarness.with(device: FakeDevice(status: state)) { api in
            let reply = try await api.request("/api/v1/device")
            #expect(reply.text.hasPrefix(#"{"device":"# + state.apiJSON.compactText + ","), "\(reply.text)")
        }
        try await APIHarness.with(device: NoDevice()) { api in
            let reply = try await api.request("/api/v1/device")
            #expect(reply.text.hasPrefix(#"{"device":{"version":5,"state":"NoDevice","board":null,"#), "\(reply.text)")
        }
    }

    @Test("a refusal answers its code, its words and the status it has always had")
    func refusals() async throws {
        try await APIHarness.with(device: NoDevice()) { api in
            let start = try await api.request(.POST, "/api/v1/device/start")
            #expect(start.status == 409)
            #expect(start.errorCode == "no_device")
            #expect((start.json["error"] as? [String: Any])?["message"] as? String == DeviceRefusal.noDevice.description)
        }
        let cases: [(DeviceRefusal, Int, String)] = [
            (.sessionRunning(sessionID: "S"), 409, "session_running"), (.nothingRunning, 409, "nothing_running"),
            (.sessionJustEnded(sessionID: "S"), 409, "busy"), (.notPassive(.fear), 409, "not_passive"),
            (.fearNotOptedIn, 422, "fear_not_enabled"), (.invalidConfiguration("x"), 422, "invalid_configuration"),
            (.pairingRefused("x"), 403, "pairing_not_approved"), (.notADaemon, 409, "no_device"),
        ]
        for (refusal, status, code) in cases {
            let error = APIError.refused(refusal)
            #expect(Int(error.status.code) == status, "\(refusal)")
            #expect(error.code == code, "\(refusal)")
            #expect(error.message == refusal.description, "\(refusal)")
        }
    }
}
