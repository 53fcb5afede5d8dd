import ChronoTesting
import ChronoCore
import ChronoHardware
import Dispatch
import Foundation
import Synchronization
import Testing
@testable import ChronoRuntime

/// A stall inside the real loop, in-process: the motor driver blocks the loop thread for 1.5 s on the
/// first "on" at or after an instant the test arms (as a stopped process or a starved CPU would).
@Suite("A stalled cue is recorded as it really began", .serialized)
struct StalledCueLoopTests {
    @Test("Auto-start after a 1.5 s stall: attempt 2 counts from its start cue as it began, not from the feedback's end; flagged")
    func autoStartAfterStall() throws {
        var configuration = try QuickSession.configuration(.challenge, intervalMilliseconds: 300, count: 2, feedbackMilliseconds: 1500)
        configuration.timing.autoStartNextAttempt = true
        let controller = SingleSessionController(configuration: configuration, context: QuickSession.context(), sessionID: "S1")
        let motor = StallingMotor()
        let button = try ScriptedButton()
        let lines = RecordingLines(), recorder = RecordingRecorder()
        let loop = try SessionLoop(button: button, motor: motor, sound: nil, controller: controller,
                                   sinks: LoopSinks(console: lines, stateFile: nil, recorder: recorder),
                                   settings: SessionLoop.Settings(realtimePriority: nil, lockMemory: false, catchSignals: false))
        let ended = DispatchSemaphore(value: 0)
        let running = LoopBox(loop: loop)
        Thread { _ = try? running.loop.run(); ended.signal() }.start()

        #expect(lines.wait(forLineContaining: "Attempt 1 of 2: press space to start."))
        let press = HardwareClock.monotonicNanoseconds() + 20_000_000
        _ = button.startReplay([ButtonEdge(.pressed, at: press), ButtonEdge(.released, at: press + 60_000_000)])
        #expect(lines.wait(forLineContaining: "Attempt 1 of 2: started."))
        let tap = HardwareClock.monotonicNanoseconds() + 300_000_000
        // The tap is recognised at its release; feedback lasts 1.5 s (its cue is shorter); attempt 2's
        // start cue is due then.
        let feedbackEnds = tap + 60_000_000 + 1_500_000_000
        motor.arm(stallOnFirstOnAfter: feedbackEnds - 20_000_000, for: 1_500_000_000)
        _ = button.startReplay([ButtonEdge(.pressed, at: tap), ButtonEdge(.released, at: tap + 60_000_000)])
        #expect(lines.wait(forLineContaining: "Attempt 2 of 2: started.", limit: 20))
        let tap2 = HardwareClock.monotonicNanoseconds() + 300_000_000
        _ = button.startReplay([ButtonEdge(.pressed, at: tap2), ButtonEdge(.released, at: tap2 + 60_000_000)])
        #expect(ended.wait(timeout: .now() + 20) == .success)

        let finish = try #require(recorder.finished.first)
        let outcome = finish.outcome
        #expect(outcome.status == .completed)
        let start2 = try #require(outcome.attempts.last?.startMark.nanoseconds)
        let stallEnded = try #require(motor.stallEndedAt)
        #expect(start2 >= stallEnded, "the mark is when the cue began, after the stall")
        #expect(start2 - feedbackEnds > 1_400_000_000 && start2 - feedbackEnds < 1_700_000_000)
        #expect(outcome.attempts.last?.tapMark.nanoseconds == tap2)
        let late = try #require(outcome.timingLateness)
        #expect(late.nanoseconds == start2 - feedbackEnds)
        #expect(lines.all.contains { $0.hasPrefix("Timing: a mark ") })
    }
}

/// The loop handed to the thread that runs it (it is used there only).
private struct LoopBox: @unchecked Sendable {
    let loop: SessionLoop
}

/// Passes commands to a `RecordingMotor`; once armed, the first "on" at or after an instant blocks
/// for a while before the line is driven (the loop thread stalls there).
final class StallingMotor: MotorOutput, @unchecked Sendable {
    let recording = RecordingMotor()
    private let plan = Mutex<(after: Int64, length: Int64)?>(nil)
    private let ended = Mutex<Int64?>(nil)

    func arm(stallOnFirstOnAfter instant: Int64, for length: Int64) { plan.withLock { $0 = (instant, length) } }

    var stallEndedAt: Int64? { ended.withLock { $0 } }

    func set(on: Bool) throws {
        let now = HardwareClock.monotonicNanoseconds()
        if on, let stall = plan.withLock({ armed -> (after: Int64, length: Int64)? in
            guard let planned = armed, now >= planned.after else { return nil }
            armed = nil
            return planned
        }) {
            HardwareClock.sleep(untilMonotonicNanoseconds: now + stall.length)
            ended.withLock { $0 = HardwareClock.monotonicNanoseconds() }
        }
        try recording.set(on: on)
    }

    func close() { recording.close() }
}
