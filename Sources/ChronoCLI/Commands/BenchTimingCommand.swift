import ArgumentParser
import ChronoCore
import ChronoDevice
import ChronoHardware
import ChronoRuntime
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `chronoception bench timing`: the real session loop through N absolute deadlines with a recording
/// motor, then an idle wait; reports wake-up lateness (motor driver call − deadline), the last
/// deadline's lateness (drift), CPU per idle minute and peak RSS. `benchmarks/timing` runs it beside
/// cyclictest under the same scheduling policy and judges the goals.
struct BenchTimingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timing",
        abstract: "Measure the session loop's wake-up lateness, drift, idle CPU and memory.")

    @Option(help: "How many deadlines.")
    var deadlines: Int = 2000

    @Option(name: .customLong("period-us"), help: "Microseconds between deadlines.")
    var periodMicroseconds: Int64 = 5000

    @Option(name: .customLong("idle-seconds"), help: "How long to measure the idle loop (0: skip).")
    var idleSeconds: Int64 = 10

    @Option(help: "SCHED_FIFO priority for the loop thread (the same as cyclictest's -p).")
    var priority: Int32 = RealtimeScheduling.defaultPriority

    @Flag(name: .customLong("no-realtime"), help: "Run the loop with normal scheduling and unlocked memory.")
    var noRealtime = false

    @Flag(help: "Print the result as one JSON object.")
    var json = false

    func validate() throws {
        guard deadlines >= 1, deadlines <= 1_000_000 else { throw ValidationError("--deadlines must be 1 to 1000000.") }
        try BoundedNumber.check(periodMicroseconds, in: 100...10_000_000, flag: "--period-us", unit: "µs")
        try BoundedNumber.check(idleSeconds, in: 0...86_400, flag: "--idle-seconds", unit: "seconds")
    }

    func run() throws {
        let settings = SessionLoop.Settings(
            onsetLatency: .zero, safeMaximumOn: .milliseconds(1000),
            realtimePriority: noRealtime ? nil : priority, lockMemory: !noRealtime, catchSignals: true)
        let silent = SilentLines()

        let motor = RecordingMotor()
        let load = DeadlineBenchController(count: deadlines, period: .nanoseconds(periodMicroseconds * 1000))
        let loadLoop = try SessionLoop(button: nil, motor: motor, sound: nil, controller: load,
                                       sinks: LoopSinks(console: silent, stateFile: nil, recorder: nil), settings: settings)
        let report = try LoopThread.run(loadLoop)
        if case .signal = report.ending { throw ExitCode(130) }

        let lateness = Self.lateness(deadlines: load.deadlines, handledAt: load.handledAt,
                                     onInstants: motor.commands.filter(\.on).map(\.atMonotonicNanoseconds))
        let summary = LatencySummary(microseconds: lateness.microseconds)

        var idleCPU: Int64 = 0
        var idleSpan = TimeSpan.zero
        if idleSeconds > 0 {
            let idle = IdleBenchController(duration: .seconds(idleSeconds))
            let idleLoop = try SessionLoop(button: nil, motor: RecordingMotor(), sound: nil, controller: idle,
                                           sinks: LoopSinks(console: silent, stateFile: nil, recorder: nil), settings: settings)
            _ = try LoopThread.run(idleLoop)
            idleCPU = idle.cpuNanoseconds
            idleSpan = idle.measured
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpuPerIdleMinuteMs = idleSpan.nanoseconds > 0 ? Double(idleCPU) / 1e6 * 60e9 / Double(idleSpan.nanoseconds) : 0
        let realtime = report.realtime

        let result: JSONValue = .object([
            ("tool", .string("chronoception")),
            ("deadlines", .int(deadlines)),
            ("period_us", .int(Int(periodMicroseconds))),
            ("scheduling", .object([
                ("policy", .string(realtime?.fifo == true ? "SCHED_FIFO" : "SCHED_OTHER")),
                ("priority", .int(Int(realtime?.fifo == true ? priority : 0))),
                ("memory_locked", .bool(realtime?.memoryLocked ?? false)),
                ("refusals", .array((realtime?.refusals ?? []).map { .string($0) })),
            ])),
            ("lateness_us", .object([
                ("p50", .double(summary.p50)), ("p99", .double(summary.p99)), ("p99_9", .double(summary.p999)),
                ("max", .double(summary.max)), ("min", .double(summary.min)), ("samples", .int(summary.count)),
            ])),
            ("missed_deadlines", .int(lateness.missed)),
            // Where the worst wake-ups fell (deadline index, µs): a stall at the start is set-up, one
            // anywhere is the machine.
            ("worst", .array(lateness.microseconds.enumerated().sorted { $0.element > $1.element }.prefix(5).map {
                .array([.int($0.offset), .double($0.element)])
            })),
            ("last_deadline_lateness_us", .double(lateness.microseconds.last ?? 0)),
            ("idle", .object([
                ("seconds", .double(idleSpan.seconds)),
                ("cpu_ms", .double(Double(idleCPU) / 1e6)),
                ("cpu_ms_per_idle_minute", .double(cpuPerIdleMinuteMs)),
                ("percent_of_one_core", .double(cpuPerIdleMinuteMs / 600)),
            ])),
            ("peak_rss_kib", .int(usage.ru_maxrss)),
        ])
        if json {
            print(result.compactText)
        } else {
            print(result.prettyText)
        }
    }

    /// Lateness of each deadline: the first motor switch-on at or after the deadline and before the next
    /// one, minus the deadline. A deadline without one is *missed* (the loop woke after its whole pulse
    /// had passed; the gate never switches on a pulse that is already over): its lateness is then when
    /// the loop handled it, so stalls count in the percentiles instead of vanishing.
    static func lateness(deadlines: [MonotonicInstant], handledAt: [MonotonicInstant], onInstants: [Int64]) -> (microseconds: [Double], missed: Int) {
        var result: [Double] = []
        var missed = 0
        var cursor = 0
        for (index, deadline) in deadlines.enumerated() {
            let next = index + 1 < deadlines.count ? deadlines[index + 1].nanoseconds : Int64.max
            while cursor < onInstants.count && onInstants[cursor] < deadline.nanoseconds { cursor += 1 }
            if cursor < onInstants.count && onInstants[cursor] < next {
                result.append(Double(onInstants[cursor] - deadline.nanoseconds) / 1000)
                cursor += 1
            } else {
                missed += 1
                result.append(Double(handledAt[index].nanoseconds - deadline.nanoseconds) / 1000)
            }
        }
        return (result, missed)
    }
}

/// The benchmark's loops have nothing to say.
private final class SilentLines: LineOutput {
    func writeLine(_ line: String) {}
}
