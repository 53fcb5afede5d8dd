import ChronoCore
import ChronoHardware
import Foundation
import Testing
@testable import ChronoRuntime

@Suite("Passive through the real loop")
struct PassiveLoopTests {
    @Test("Many boundaries: each due at start + k × interval, each pulse fired, early by the onset latency at most")
    func manyBoundaries() throws {
        // 250 ms leaves room for H(I) (80 ms) and the engine's 150 ms between vibrations, so each boundary's
        // pulse is due at the boundary itself.
        let count = 12
        let configuration = try QuickSession.configuration(.passive, intervalMilliseconds: 250, count: count)
        let controller = SingleSessionController(configuration: configuration, context: QuickSession.context(), sessionID: "B1")
        let latency = TimeSpan.milliseconds(25)
        let harness = try LoopHarness(controller: controller, onsetLatency: latency)
        harness.start()
        #expect(try harness.finish().ending == .finished)

        let finish = try #require(harness.recorder.finished.first)
        let outcome = finish.outcome
        #expect(outcome.status == .completed)
        #expect(outcome.boundaries.count == count)
        for boundary in outcome.boundaries {
            #expect(boundary.due == outcome.startedAt + configuration.interval.span * Int64(boundary.index))
        }
        // Every boundary's pulse started; it was commanded the onset latency early, so the instant kept
        // (the driver call's return plus that latency: when it is felt) is never before the boundary.
        #expect(finish.boundariesFired.count == count)
        for (boundary, fired) in zip(outcome.boundaries, finish.boundariesFired) {
            #expect(fired >= boundary.due)
        }
        let commandedOn = harness.motor.commands.filter(\.on).map(\.atMonotonicNanoseconds)
        for fired in finish.boundariesFired {
            #expect(commandedOn.contains { fired.nanoseconds - latency.nanoseconds >= $0 && fired.nanoseconds - latency.nanoseconds - $0 < 20_000_000 })
        }
        // Start cue (2 ticks) + one S per boundary + session done (2 buzzes).
        #expect(harness.motor.commands.filter(\.on).count == 2 + count + 2)
        #expect(harness.lines.all.filter { $0.hasPrefix("Boundary ") }.count == count)
        #expect(harness.motor.endedOff)
    }

    @Test("A long press after a boundary ends the session as completed with the boundaries done")
    func endEarly() throws {
        let configuration = try QuickSession.configuration(.passive, intervalMilliseconds: 250, count: 20)
        let controller = SingleSessionController(configuration: configuration, context: QuickSession.context(), sessionID: "B2")
        let harness = try LoopHarness(controller: controller)
        harness.start()
        try harness.waitForLine("Boundary 2 of 20.")
        harness.tap(holdMilliseconds: 500)
        _ = try harness.finish()
        let outcome = try #require(harness.recorder.finished.first?.outcome)
        #expect(outcome.status == .completed)
        #expect(outcome.boundaries.count >= 2 && outcome.boundaries.count < 20)
        #expect(harness.motor.endedOff)
    }

    @Test("The state file is replaced on state changes and ends with the last state")
    func stateFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chrono-state-\(UUID().uuidString)").path
        let file = StateFile(path: directory + "/state.json")
        let configuration = try QuickSession.configuration(.passive, intervalMilliseconds: 150, count: 3)
        let controller = SingleSessionController(configuration: configuration, context: QuickSession.context(), sessionID: "B3")
        let harness = try LoopHarness(controller: controller, stateFile: file)
        harness.start()
        _ = try harness.finish()
        let text = try #require(file.read())
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(json["version"] as? Int == 3)
        #expect(json["state"] as? String == "Completed")
        #expect(json["repetitions_done"] as? Int == 3)
        #expect(json["session_id"] as? String == "B3")
        // Atomic replacement leaves no temporary files behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["state.json"])
    }
}
