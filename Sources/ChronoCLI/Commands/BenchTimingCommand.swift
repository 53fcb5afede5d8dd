import ArgumentParser
import ChronoDevice
import ChronoRuntime

/// `chronoception bench timing`: `TimingBench`'s options and its result on standard output.
/// `benchmarks/timing` runs it beside cyclictest under the same scheduling policy and judges the goals.
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
        let bench = TimingBench(deadlines: deadlines, periodMicroseconds: periodMicroseconds, idleSeconds: idleSeconds,
                                priority: priority, realtime: !noRealtime)
        guard let result = try bench.run() else { throw ExitCode(130) }
        print(json ? result.compactText : result.prettyText)
    }
}
