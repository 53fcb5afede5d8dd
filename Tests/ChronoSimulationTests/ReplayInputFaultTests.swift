import ChronoCore
import Testing
@testable import ChronoSimulation

/// Edge files as people really write them, and numbers the engine cannot compute with.
@Suite struct ReplayInputFaultTests {
    @Test func crlfLinesAreLines() throws {
        let script = try ReplayScript.parse("press 1000\r\nrelease 2000\r\n# note\r\nend 3000\r\n", source: "f")
        #expect(script.events.count == 3)
    }

    @Test(arguments: ["9223372036854775807", "99999999999999999999999", "3155760000000000001"])
    func timesBeyondALifetimeAreRefusedByName(value: String) {
        do {
            _ = try ReplayScript.parse("press \(value)\n", source: "f")
            Issue.record("accepted \(value)")
        } catch {
            #expect(error.description.contains("out of range"))
            if case .tooLate = error {} else { Issue.record("\(error)") }
        }
    }

    @Test func aHugeLineIsNotEchoedWhole() {
        let line = String(repeating: "z", count: 1_000_000)
        do {
            _ = try ReplayScript.parse(line, source: "f")
            Issue.record("accepted")
        } catch {
            #expect(error.description.count < 1_000)
        }
    }

    @Test func theLatestAcceptedTimeStillReplays() throws {
        let last = TimeLimits.maximumMonotonicNanoseconds
        let script = try ReplayScript.parse("press \(last - 2_000_000_000)\nrelease \(last - 1_900_000_000)\nend \(last)\n", source: "f")
        let configuration = try SessionConfiguration(mode: .challenge, interval: try TrainingInterval(seconds: 10), plannedCount: 1)
        _ = VirtualClock.run(configuration: configuration, soundAudible: true, inputs: script.events)
    }
}
