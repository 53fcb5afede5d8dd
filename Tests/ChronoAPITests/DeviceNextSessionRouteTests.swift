@testable import ChronoAPI
import ChronoCore
import ChronoTesting
import Foundation
import Testing

@Suite("GET /device names the session the device starts next")
struct DeviceNextSessionRouteTests {
    static let next = DeviceState.NextSession(mode: .challenge, interval: try! TrainingInterval(seconds: 15), count: 2)

    @Test("device.next_session in GET /device and in the state event, exactly; null during a session; documented in openapi.json")
    func nextSession() async throws {
        var idle = DeviceState(state: .idle, board: "desktop", health: "on")
        idle.mode = .challenge
        idle.interval = try TrainingInterval(seconds: 15)
        idle.nextSession = Self.next
        let member = #""next_session":{"mode":"challenge","interval":"15s","interval_seconds":15,"count":2,"in_study":false}"#
        #expect(DeviceEvent.state(idle).serverSentEvent.contains(member))
        try await APIHarness.with(device: FakeDevice(status: idle)) { api in
            let reply = try await api.request("/api/v1/device")
            #expect(reply.status == 200)
            #expect(reply.text.contains(member), "\(reply.text)")

            api.fake.publish(DeviceState(state: .attemptRunning, board: "desktop"))
            let running = try await api.request("/api/v1/device")
            #expect(running.text.contains(#""next_session":null"#), "\(running.text)")

            let document = try await api.request("/api/v1/openapi.json")
            let schemas = try #require((document.json["components"] as? [String: Any])?["schemas"] as? [String: Any])
            let properties = try #require((schemas["DeviceStatus"] as? [String: Any])?["properties"] as? [String: Any])
            let described = try #require(properties["next_session"] as? [String: Any])
            #expect(described["required"] as? [String] == ["mode", "interval", "interval_seconds", "count"])
        }
    }
}
