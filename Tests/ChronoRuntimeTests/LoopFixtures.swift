import ChronoTesting
import ChronoCore
import ChronoHardware
import Foundation
@testable import ChronoRuntime

// What the loop tests share, on virtual time (`VirtualHarness`) and in real time (`LoopHarness`).

/// The records the loop handed to its recorder.
final class RecordingRecorder: SessionRecorder, @unchecked Sendable {
    private let lock = NSLock()
    private var startedRecords: [SessionStartRecord] = []
    private var finishedRecords: [SessionFinishRecord] = []

    func sessionStarted(_ start: SessionStartRecord) { lock.withLock { startedRecords.append(start) } }
    func sessionFinished(_ finish: SessionFinishRecord) { lock.withLock { finishedRecords.append(finish) } }

    var started: [SessionStartRecord] { lock.withLock { startedRecords } }
    var finished: [SessionFinishRecord] { lock.withLock { finishedRecords } }
}

extension RecordingMotor {
    /// Whether every switch-on was followed by a switch-off and the last command left the motor off.
    var endedOff: Bool {
        !isOn && onSpans.allSatisfy { $0.end != nil }
    }
}

/// Short intervals and timings: a session of a second or two (in real time, or on virtual time).
enum QuickSession {
    static func configuration(_ mode: SessionMode, intervalMilliseconds: Int64 = 300, count: Int,
                              feedbackMilliseconds: Int64 = 200, longPressMilliseconds: Int64 = 400) throws -> SessionConfiguration {
        try SessionConfiguration(
            mode: mode, interval: .testOnly(milliseconds: intervalMilliseconds), plannedCount: count,
            timing: SessionTiming(feedbackDuration: .milliseconds(feedbackMilliseconds), abortConfirmWindow: .milliseconds(2000)),
            gestures: GestureSettings(debounce: .milliseconds(5), longPress: .milliseconds(longPressMilliseconds)))
    }

    static func context(sound: SoundStatus = .inaudible(reason: "not a Fear session")) -> SessionContext {
        SessionContext(board: "test", pressHint: "press space", soundAudibility: sound, healthStatus: "on")
    }
}

/// A device daemon's controller over an in-memory library, put together as `run` does: what both
/// harnesses wire to their loop (`VirtualDaemonRig`; `KernelLoopTests` directly).
struct DaemonParts {
    let library: InMemoryDeviceLibrary
    let keeper: SnapshotKeeper
    let controller: DeviceDaemonController

    init(_ configuration: SessionConfiguration) {
        library = InMemoryDeviceLibrary(startingConfiguration: configuration, healthStatus: "on")
        keeper = SnapshotKeeper(library: library)
        controller = DeviceDaemonController(keeper: keeper, board: "test", pressHint: "press space",
                                            soundStatus: { .inaudible(reason: "none") })
    }
}
