@testable import ChronoAPI
import ChronoCore
import ChronoStore
import ChronoTesting
import Foundation
import Testing

@Suite("Control actions and live events")
struct ControlRouteTests {
    @Test("start takes the last configuration, a preset or an explicit configuration, validated like the CLI")
    func startVariants() async throws {
        try await APIHarness.with { api in
            let last = try await api.request(.POST, "/api/v1/device/start")
            #expect(last.status == 202, "\(last.text)")
            #expect((last.json["device"] as? [String: Any])?["state"] as? String == "WaitingForStart")
            #expect(try await api.request(.POST, "/api/v1/device/discard").status == 202)
            #expect(try await api.request(.POST, "/api/v1/device/start", json: #"{"preset": "30s"}"#).status == 202)
            #expect(try await api.request(.POST, "/api/v1/device/discard").status == 202)
            #expect(try await api.request(.POST, "/api/v1/device/start", json: #"{"mode": "passive", "interval": "2m", "count": 3}"#).status == 202)
            let expected: [DeviceAction] = [
                .start(.lastConfiguration), .discard,
                .start(.preset(try TrainingInterval(seconds: 30))), .discard,
                .start(.explicit(mode: .passive, interval: try TrainingInterval(seconds: 120), count: 3)),
            ]
            #expect(api.fake.actions == expected)
        }
    }

    @Test("actions that do not apply are refused with the device's reason and a fitting status")
    func refusals() async throws {
        try await APIHarness.with { api in
            let end = try await api.request(.POST, "/api/v1/device/end")
            #expect(end.status == 409)
            #expect(end.errorCode == "nothing_running")
            #expect(try await api.request(.POST, "/api/v1/device/discard").errorCode == "nothing_running")
            let fear = try await api.request(.POST, "/api/v1/device/start", json: #"{"mode": "fear", "interval": "1m"}"#)
            #expect(fear.status == 422)
            #expect(fear.errorCode == "fear_not_enabled")
            let short = try await api.request(.POST, "/api/v1/device/start", json: #"{"mode": "challenge", "interval": "5s"}"#)
            #expect(short.status == 422)
            #expect(short.errorCode == "invalid_interval")
            #expect(try await api.request(.POST, "/api/v1/device/start", json: #"{"mode": "challenge", "interval": "1m", "count": 100}"#).errorCode == "invalid_count")
            #expect(try await api.request(.POST, "/api/v1/device/start", json: #"{"preset": "1m", "mode": "challenge"}"#).status == 400)
            #expect(try await api.request(.POST, "/api/v1/device/start", json: #"{"interval": "1m"}"#).status == 400)
            #expect(try await api.request(.POST, "/api/v1/device/start", json: #"{"mode": "challenge", "interval": "1m"}"#).status == 202)
            let twice = try await api.request(.POST, "/api/v1/device/start")
            #expect(twice.status == 409)
            #expect(twice.errorCode == "session_running")
            let notPassive = try await api.request(.POST, "/api/v1/device/end")
            #expect(notPassive.errorCode == "not_passive")
            #expect(api.fake.actions.count == 6)
        }
    }

    @Test("Fear is the device's decision: a device that allows it starts Fear with the setting off (202); one that refuses answers 422 fear_not_enabled in words")
    func fearIsTheDevicesDecision() async throws {
        let fearStart = #"{"mode": "fear", "interval": "1m"}"#
        // As `run --i-understand-fear-mode` with the fear-mode setting off (a fresh store has it off).
        try await APIHarness.with(device: FakeDevice(fearAllowed: true)) { api in
            #expect(try api.store.settings().session.fearModeOn == false)
            let started = try await api.request(.POST, "/api/v1/device/start", json: fearStart)
            #expect(started.status == 202, "\(started.text)")
            #expect((started.json["device"] as? [String: Any])?["mode"] as? String == "fear")
        }
        try await APIHarness.with(device: FakeDevice(fearAllowed: false)) { api in
            let refused = try await api.request(.POST, "/api/v1/device/start", json: fearStart)
            #expect(refused.status == 422)
            #expect(refused.errorCode == "fear_not_enabled")
            #expect((refused.json["error"] as? [String: Any])?["message"] as? String == "Fear Mode is not opted into: turn it on with `chronoception settings set fear-mode on`.")
            #expect(api.fake.actions == [.start(.explicit(mode: .fear, interval: try TrainingInterval(seconds: 60), count: nil))])
        }
    }

    @Test("without a device every action is refused with 409 and what to do instead; reads still work")
    func noDevice() async throws {
        try await APIHarness.with(device: NoDevice()) { api in
            let status = try await api.request("/api/v1/device", via: .socket)
            #expect((status.json["device"] as? [String: Any])?["state"] as? String == "NoDevice")
            for path in ["/api/v1/device/start", "/api/v1/device/end", "/api/v1/device/discard"] {
                let reply = try await api.request(.POST, path)
                #expect(reply.status == 409)
                #expect(reply.errorCode == "no_device")
            }
            let pairing = try await api.request(.POST, "/api/v1/pairing", json: #"{"name": "phone"}"#)
            #expect(pairing.status == 409)
            #expect(pairing.errorCode == "no_device")
            #expect(try await api.request("/api/v1/progress").status == 200)
        }
    }

    @Test("live events arrive as Server-Sent Events: the current state first, then each change")
    func serverSentEvents() async throws {
        try await APIHarness.with { api in
            var request = HTTPClientRequestFactory.get(api.url("/api/v1/events", via: .socket))
            request.headers.add(name: "Accept", value: "text/event-stream")
            let response = try await api.client.execute(request, timeout: .seconds(30))
            #expect(response.status.code == 200)
            #expect(response.headers.first(name: "content-type")?.hasPrefix("text/event-stream") == true)
            var reader = SSEReader(response.body.makeAsyncIterator())
            let first = try #require(try await reader.next())
            #expect(first.name == "state")
            #expect(first.data.contains("\"state\":\"Idle\""))
            #expect(api.server.state.events.subscriberCount == 1)
            #expect(try await api.request(.POST, "/api/v1/device/start", json: #"{"mode": "challenge", "interval": "1m", "count": 2}"#).status == 202)
            let started = try #require(try await reader.next())
            #expect(started.name == "state")
            #expect(started.data.contains("\"state\":\"WaitingForStart\""))
            api.fake.emit(.feedback(DeviceFeedback(sessionID: "FAKE-1", index: 1, count: 2, text: "late by 1.2 s (2 %)", zone: .green)))
            let feedback = try #require(try await reader.next())
            #expect(feedback.name == "feedback")
            #expect(feedback.data == #"{"session_id":"FAKE-1","index":1,"count":2,"text":"late by 1.2 s (2 %)","zone":"green"}"#)
            #expect(try await api.request(.POST, "/api/v1/device/discard").status == 202)
            let finished = try #require(try await reader.next())
            #expect(finished.name == "session_finished")
            #expect(finished.data == #"{"session_id":"FAKE-1","status":"aborted","recorded":true}"#)
        }
    }
}
