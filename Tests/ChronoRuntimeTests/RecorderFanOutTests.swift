import ChronoCore
import Synchronization
import Testing
@testable import ChronoRuntime

/// The fan-out settles a start's wall-clock fact once, so every recorder keeps the same answer.
@Suite("Recorder fan-out")
struct RecorderFanOutTests {
    static func start(_ id: String, synchronised: Bool?) throws -> SessionStartRecord {
        SessionStartRecord(sessionID: id, configuration: try QuickSession.configuration(.challenge, count: 1),
                           anchor: WallClockAnchor(unixNanoseconds: 1_795_000_000_000_000_000, monotonic: .zero, utcOffsetSeconds: 0),
                           board: "test", soundAudible: true, wallClockSynchronised: synchronised)
    }

    @Test("a start that does not say is asked once; every recorder gets that answer; a start that says is not asked")
    func wallClockAskedOnce() throws {
        // A clock that synchronises between two questions: asked by each recorder, the two would differ.
        let asked = Mutex(0)
        let clock: @Sendable () -> Bool = { asked.withLock { $0 += 1; return $0 % 2 == 0 } }
        let first = RecordingRecorder(), second = RecordingRecorder()
        let fanOut = RecorderFanOut([first, second], isWallClockSynchronised: clock)
        fanOut.sessionStarted(try Self.start("A", synchronised: nil))
        #expect(asked.withLock { $0 } == 1)
        #expect(first.started.map(\.wallClockSynchronised) == [false])
        #expect(second.started.map(\.wallClockSynchronised) == [false])
        fanOut.sessionStarted(try Self.start("B", synchronised: true))
        #expect(asked.withLock { $0 } == 1)
        #expect(second.started.map(\.wallClockSynchronised) == [false, true])
        // Without a clock the start goes on as it is.
        let plain = RecordingRecorder()
        RecorderFanOut([plain]).sessionStarted(try Self.start("C", synchronised: nil))
        #expect(plain.started.map(\.wallClockSynchronised) == [nil])
    }
}
