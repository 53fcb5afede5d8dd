import ChronoCore
import ChronoHardware
import ChronoRuntime
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `board check --loopback`: the device measures its own latency with one jumper wire from the motor's
/// output to the board file's `loopback` input. The session loop drives the pulses at absolute deadlines
/// on the motor line and reads the input as its button; `LoopbackAnalysis` pairs switches with edges.
/// Then the loop's wake-up benchmark (`bench timing`'s first half) runs, and one table names the board,
/// kernel, CPU governor and the scheduling that was granted, for a Pi owner to paste.
public struct LoopbackCheck {
    /// How the pulses go.
    public struct Options: Sendable {
        public var pulses: Int
        public var period: TimeSpan
        /// Deadlines, 5 ms apart as `benchmarks/timing` has them, for the wake-up benchmark after the loopback (0: skip it).
        public var benchDeadlines: Int
        public var realtime: Bool

        public init(pulses: Int = 200, period: TimeSpan = .milliseconds(20), benchDeadlines: Int = 1000, realtime: Bool = true) {
            self.pulses = pulses
            self.period = period
            self.benchDeadlines = benchDeadlines
            self.realtime = realtime
        }
    }

    /// What the check found.
    public struct Result: Sendable {
        public var analysis: LoopbackAnalysis
        public var wakeUps: TimingBench.WakeUps?
        public var realtime: RealtimeScheduling.Outcome?
        /// The lines for the person: the table, or what is wrong and its fix.
        public var text: String
        public var passed: Bool { if case .measured = analysis.outcome { true } else { false } }
    }

    /// Why the check could not run at all.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What kind of thing is wrong: the board file, a line or the loop, or a signal stopped it.
        public enum Kind: Sendable { case boardFile, device, stopped }
        public var kind: Kind
        public var problem: String
        public var fix: String
        public var description: String { "\(problem). Fix: \(fix)" }
    }

    private let options: Options

    public init(options: Options) { self.options = options }

    /// Opens the board's motor line and loopback input and runs the check on them. `announce` is told
    /// what is measured once both lines are open (so a board-file or device problem is the only line).
    public func run(_ configuration: BoardConfiguration, announce: (String) -> Void = { _ in }) throws(Failure) -> Result {
        guard let loopback = configuration.loopback else {
            throw Failure(kind: .boardFile, problem: "board \(configuration.name) names no loopback input line",
                          fix: "add a `loopback:` section with a spare input line (e.g. `chip: pinctrl-bcm2711`, `line: GPIO24`) to \(configuration.sourcePath); docs/HARDWARE.md shows the jumper")
        }
        guard case .gpiod(let motorLine) = configuration.motor.driver else {
            throw Failure(kind: .boardFile, problem: "board \(configuration.name)'s motor is not a GPIO line, so there is nothing to jumper",
                          fix: "run the loopback check on a board whose `motor.driver` is gpiod")
        }
        let motor: GpiodMotor
        let input: GpiodButton
        do {
            motor = try GpiodMotor(line: motorLine)
        } catch {
            throw Failure(kind: .device, problem: "motor: \(error.detail)", fix: error.fix)
        }
        defer { motor.close() }
        do {
            input = try GpiodButton(line: loopback, debounceMilliseconds: 0, role: "loopback")
        } catch {
            throw Failure(kind: .device, problem: "loopback: \(error.detail)", fix: error.fix)
        }
        defer { input.close() }
        let wiring = "the motor line (\(motor.resolved)) to the loopback input (\(input.resolved))"
        announce("Loopback self-test on board \(configuration.name) (\(configuration.sourcePath)): \(options.pulses) pulses \(options.period.nanoseconds / 1_000_000) ms apart, from \(wiring)")
        return try run(motor: motor, input: input, board: configuration.name, wiring: wiring)
    }

    /// Runs the check on any motor and input (a test passes jumpered stand-ins). `wiring` names the two
    /// ends for the messages.
    public func run(motor: MotorOutput, input: ButtonInput, board: String, wiring: String) throws(Failure) -> Result {
        let controller = LoopbackBenchController(count: options.pulses, period: options.period)
        let settings = SessionLoop.Settings(onsetLatency: .zero, safeMaximumOn: .milliseconds(1000),
                                            realtimePriority: options.realtime ? RealtimeScheduling.defaultPriority : nil,
                                            lockMemory: options.realtime, catchSignals: true)
        let report: SessionLoop.Report
        do {
            let loop = try SessionLoop(button: input, motor: motor, sound: nil, controller: controller,
                                       sinks: LoopSinks(console: DiscardedLines(), stateFile: nil, recorder: nil), settings: settings)
            report = try LoopThread.run(loop)
        } catch {
            throw Failure(kind: .device, problem: "the loop could not run: \(error)", fix: "check `dmesg`; the lines may have been lost")
        }
        if case .signal = report.ending {
            throw Failure(kind: .stopped, problem: "stopped by a signal before the pulses were done", fix: "run it again and let it finish (\(options.pulses) pulses take \(options.pulses * Int(options.period.nanoseconds / 1_000_000)) ms)")
        }
        let analysis = LoopbackAnalysis(switches: controller.switches, edges: controller.edges)
        var wakeUps: TimingBench.WakeUps?
        if case .measured = analysis.outcome, options.benchDeadlines > 0 {
            let bench = TimingBench(deadlines: options.benchDeadlines, periodMicroseconds: 5000, idleSeconds: 0,
                                    priority: RealtimeScheduling.defaultPriority, realtime: options.realtime)
            wakeUps = try? bench.measureWakeUps()
        }
        let text = LoopbackReport(board: board, wiring: wiring, pulses: options.pulses, period: options.period,
                                  analysis: analysis, wakeUps: wakeUps, realtime: report.realtime,
                                  system: .current).text
        return Result(analysis: analysis, wakeUps: wakeUps, realtime: report.realtime, text: text)
    }
}
