import ChronoTesting
import ChronoCore
import ChronoHardware
import Dispatch
import Foundation
import Synchronization
@testable import ChronoRuntime

/// Runs a real `SessionLoop` on the product's driver (`KernelLoopDriver`), in real time on its own
/// thread, with mock drivers, and records what it hands off: the integration layer (`KernelLoopTests`,
/// `InputLostTests`); every other loop test runs on virtual time (`VirtualHarness`). Waits are for
/// conditions (a line appearing, the loop ending), with a generous limit; no test asserts how fast
/// anything happened.
final class LoopHarness: @unchecked Sendable {
    let button: ScriptedButton
    let motor: RecordingMotor
    let sound: RecordingSound?
    let lines = RecordingLines()
    let recorder = RecordingRecorder()
    let events = DeviceEventHub()
    let loop: SessionLoop
    private let result = Mutex<Result<SessionLoop.Report, Error>?>(nil)
    private let ended = DispatchSemaphore(value: 0)

    init(controller: LoopController, sound: RecordingSound? = nil, stateFile: StateFile? = nil,
         onsetLatency: TimeSpan = .zero, safeMaximumOn: TimeSpan = .milliseconds(1000),
         alsoRecord: [SessionRecorder] = []) throws {
        button = try ScriptedButton()
        motor = RecordingMotor()
        self.sound = sound
        loop = try SessionLoop(
            button: button, motor: motor, sound: sound, controller: controller,
            sinks: LoopSinks(console: lines, stateFile: stateFile,
                             recorder: alsoRecord.isEmpty ? recorder : RecorderFanOut([recorder] + alsoRecord), events: events),
            settings: SessionLoop.Settings(onsetLatency: onsetLatency, safeMaximumOn: safeMaximumOn,
                                           realtimePriority: nil, lockMemory: false, catchSignals: false))
    }

    func start() {
        let thread = Thread { [self] in
            let outcome = Result { try loop.run() }
            result.withLock { $0 = outcome }
            ended.signal()
        }
        thread.start()
    }

    /// Waits for the loop to end (at most `limit` seconds) and returns how it ended.
    func finish(limit: Double = 30) throws -> SessionLoop.Report {
        guard ended.wait(timeout: .now() + limit) == .success else { throw HarnessError.loopDidNotEnd }
        ended.signal()
        return try result.withLock { $0! }.get()
    }

    /// A press now and its release `holdMilliseconds` later, each injected when its instant comes.
    func tap(holdMilliseconds: Int64 = 60, afterMilliseconds delay: Int64 = 0) {
        let press = HardwareClock.monotonicNanoseconds() + delay * 1_000_000
        button.startReplay([ButtonEdge(.pressed, at: press), ButtonEdge(.released, at: press + holdMilliseconds * 1_000_000)])
    }

    /// A handle on the loop, as the companion would hold it.
    var handle: DaemonHandle { DaemonHandle(loop: loop, events: events) }

    /// Asks `request` through the handle and waits for the answer (at most `limit` seconds).
    func ask(_ request: DeviceAction, limit: Double = 10) throws -> DeviceReply {
        let answer = Mutex<DeviceReply?>(nil)
        let answered = DispatchSemaphore(value: 0)
        handle.request(request) { reply in
            answer.withLock { $0 = reply }
            answered.signal()
        }
        guard answered.wait(timeout: .now() + limit) == .success else { throw HarnessError.noAnswer(request) }
        return answer.withLock { $0! }
    }

    /// Waits until a console line contains `text`.
    func waitForLine(_ text: String, limit: Double = 20) throws {
        guard lines.wait(for: { $0.contains { $0.contains(text) } }, limit: limit) else {
            throw HarnessError.lineNeverCame(text, seen: lines.all)
        }
    }
}

enum HarnessError: Error, CustomStringConvertible {
    case loopDidNotEnd
    case lineNeverCame(String, seen: [String])
    case noAnswer(DeviceAction)

    var description: String {
        switch self {
        case .loopDidNotEnd: return "the loop did not end"
        case .lineNeverCame(let text, let seen): return "no line with '\(text)'; lines: \(seen)"
        case .noAnswer(let request): return "no answer to \(request)"
        }
    }
}
