import ChronoCore
import ChronoHardware
import Foundation
import Testing
@testable import ChronoRuntime

/// Passive sessions through the real loop on virtual time: every motor edge on an exact instant.
@Suite("Passive through the loop on virtual time")
struct PassiveLoopTests {
    static func ms(_ value: Int64) -> MonotonicInstant { VirtualHarness.ms(value) }

    @Test("Many boundaries: each due at start + k × interval, each pulse commanded the onset latency early and felt on time")
    func manyBoundaries() throws {
        let count = 12
        let configuration = try QuickSession.configuration(.passive, intervalMilliseconds: 250, count: count)
        let controller = SingleSessionController(configuration: configuration, context: QuickSession.context(), sessionID: "B1")
        let latency = TimeSpan.milliseconds(25)
        let harness = try VirtualHarness(controller: controller, onsetLatency: latency)
        #expect(try harness.run().ending == .finished)

        let finish = try #require(harness.recorder.finished.first)
        let outcome = finish.outcome
        #expect(outcome.status == .completed)
        #expect(outcome.startedAt == .zero)
        #expect(outcome.boundaries.map(\.due) == (1...count).map { Self.ms(250 * Int64($0)) })
        // The start cue is due at the start itself, so it cannot be commanded early: it starts 25 ms
        // late, whole, and what follows keeps clear of it (`MotorPlan.separation`), which moves
        // boundaries 1 and 2 back. From boundary 3 on, each boundary's pulse is commanded exactly the
        // onset latency before it is due and felt exactly on time.
        #expect(finish.boundariesFired == [Self.ms(290), Self.ms(520)] + (3...count).map { Self.ms(250 * Int64($0)) })
        let boundaryOns = Array(harness.onInstants.dropFirst(2).prefix(count))
        #expect(boundaryOns == finish.boundariesFired.map { $0 - latency })
        // Start cue (2 ticks) + one S per boundary + session done (2 buzzes).
        #expect(harness.onInstants.count == 2 + count + 2)
        #expect(harness.lines(containing: "Boundary ").count == count)
        #expect(harness.motor.endedOff)
    }

    @Test("A long press after a boundary ends the session as completed with the boundaries done")
    func endEarly() throws {
        let configuration = try QuickSession.configuration(.passive, intervalMilliseconds: 250, count: 20)
        let controller = SingleSessionController(configuration: configuration, context: QuickSession.context(), sessionID: "B2")
        let harness = try VirtualHarness(controller: controller)
        harness.tap(at: Self.ms(550), holdMilliseconds: 500)  // after boundary 2, held past the 400 ms long press
        _ = try harness.run()
        let outcome = try #require(harness.recorder.finished.first?.outcome)
        #expect(outcome.status == .completed)
        // Boundary 3 (750 ms) passed before the press was recognised as long (950 ms), boundary 4 did not.
        #expect(outcome.boundaries.count == 3)
        #expect(outcome.endedAt == Self.ms(950))
        #expect(harness.motor.endedOff)
    }

    @Test("The state file is replaced on state changes and ends with the last state")
    func stateFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chrono-state-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = StateFile(path: directory + "/state.json")
        let configuration = try QuickSession.configuration(.passive, intervalMilliseconds: 150, count: 3)
        let controller = SingleSessionController(configuration: configuration, context: QuickSession.context(), sessionID: "B3")
        let harness = try VirtualHarness(controller: controller, stateFile: file)
        _ = try harness.run()
        let text = try #require(file.read())
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(json["version"] as? Int == DeviceState.formatVersion)
        #expect(json["state"] as? String == "Completed")
        #expect(json["repetitions_done"] as? Int == 3)
        #expect(json["session_id"] as? String == "B3")
        // Atomic replacement leaves no temporary files behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["state.json"])
    }
}
