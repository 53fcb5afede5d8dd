import ChronoCore
import ChronoTesting
import Testing
@testable import ChronoRuntime

/// A daemon transcript replayed on the virtual clock through the device's own controller and the
/// feeding the real loop uses: an idle tap, a session, preset browsing, a second session right after.
@Suite("Replaying a daemon transcript")
struct DaemonReplayTests {
    static func ms(_ value: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: value * 1_000_000) }

    static func tap(at press: Int64, hold: Int64 = 60) -> [SessionEvent] {
        [.button(RawButtonEdge(pressed: true, at: ms(press))), .button(RawButtonEdge(pressed: false, at: ms(press + hold)))]
    }

    @Test("Idle tap, a Challenge attempt, two long presses to the second preset, a tap: two sessions back to back")
    func idleBrowseTwoSessions() throws {
        let first = try QuickSession.configuration(.challenge, intervalMilliseconds: 300, count: 1)
        let library = InMemoryDeviceLibrary(startingConfiguration: first, healthStatus: "on")
        let keeper = SnapshotKeeper(library: library)
        let controller = DeviceDaemonController(keeper: keeper, board: "replay", pressHint: "press",
                                                soundStatus: { .inaudible(reason: "none") })
        let recorder = RecordingRecorder()
        // Given out of order: the feeding sorts them.
        let inputs = Self.tap(at: 1_800) + Self.tap(at: 1_000) + Self.tap(at: 1_500)  // idle tap, start, tap mark
            + Self.tap(at: 3_000, hold: 500) + Self.tap(at: 3_700, hold: 500)         // browse: preset 1, preset 2
            + Self.tap(at: 4_500)                                                    // pick preset 2
            + Self.tap(at: 5_000) + Self.tap(at: 6_000)                              // its attempt
        let transcript = VirtualLoop.run(controller, start: Self.ms(0), inputs: inputs, end: Self.ms(8_000),
                                         recorder: RecorderFanOut([recorder, library]))
        #expect(recorder.started.map(\.configuration.interval) == [.testOnly(milliseconds: 300), .builtInPreset])
        #expect(recorder.started.map(\.configuration.mode) == [.challenge, .challenge])
        #expect(recorder.finished.map(\.outcome.status) == [.completed, .completed])
        #expect(recorder.finished.map { $0.outcome.attempts.map(\.elapsedSeconds) } == [[0.3], [1.0]])
        #expect(recorder.finished.first?.outcome.startedAt == Self.ms(1_060))
        #expect(recorder.finished.last?.outcome.startedAt == Self.ms(4_560))
        let offered = transcript.lines.filter { $0.hasPrefix("Preset ") }
        #expect(offered.count == 2)
        #expect(offered.last?.contains("5m 0s") == true)
        #expect(transcript.lines.last { $0.hasPrefix("Idle. Tap to start") }?.contains("5m 0s") == true)
    }
}
