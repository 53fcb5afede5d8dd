import ChronoCore
import ChronoHardware
import ChronoRuntime
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The timing benchmark (`chronoception bench timing`): the real session loop, on its loop thread,
/// through N absolute deadlines with a recording motor, then an idle wait; measures wake-up lateness
/// (motor driver call − deadline), the last deadline's lateness (drift), CPU per idle minute and peak
/// RSS. `benchmarks/timing` runs it beside cyclictest under the same scheduling policy and judges the goals.
public struct TimingBench {
    /// How many deadlines.
    public var deadlines: Int
    /// Microseconds between deadlines.
    public var periodMicroseconds: Int64
    /// How long to measure the idle loop (0: skip).
    public var idleSeconds: Int64
    /// SCHED_FIFO priority for the loop thread (the same as cyclictest's -p).
    public var priority: Int32
    /// Run with SCHED_FIFO and locked memory.
    public var realtime: Bool

    public init(deadlines: Int, periodMicroseconds: Int64, idleSeconds: Int64, priority: Int32, realtime: Bool) {
        self.deadlines = deadlines
        self.periodMicroseconds = periodMicroseconds
        self.idleSeconds = idleSeconds
        self.priority = priority
        self.realtime = realtime
    }

    /// The wake-up part of the benchmark: each deadline's lateness and what scheduling was granted.
    public struct WakeUps: Sendable {
        public var lateness: [Double]
        public var missed: Int
        public var realtime: RealtimeScheduling.Outcome?
        public var summary: LatencySummary { LatencySummary(microseconds: lateness) }
    }

    private var settings: SessionLoop.Settings {
        SessionLoop.Settings(onsetLatency: .zero, safeMaximumOn: .milliseconds(1000),
                             realtimePriority: realtime ? priority : nil, lockMemory: realtime, catchSignals: true)
    }

    /// The loop through the deadlines with a recording motor; nil when a signal stopped it.
    public func measureWakeUps() throws -> WakeUps? {
        let motor = RecordingMotor()
        let load = DeadlineBenchController(count: deadlines, period: .nanoseconds(periodMicroseconds * 1000))
        let loadLoop = try SessionLoop(button: nil, motor: motor, sound: nil, controller: load,
                                       sinks: LoopSinks(console: DiscardedLines(), stateFile: nil, recorder: nil), settings: settings)
        let report = try LoopThread.run(loadLoop)
        if case .signal = report.ending { return nil }
        let lateness = Self.lateness(deadlines: load.deadlines, handledAt: load.handledAt,
                                     onInstants: motor.commands.filter(\.on).map(\.atMonotonicNanoseconds))
        return WakeUps(lateness: lateness.microseconds, missed: lateness.missed, realtime: report.realtime)
    }

    /// The result as one JSON object, or nil when a signal stopped the measurement.
    public func run() throws -> JSONValue? {
        guard let wakeUps = try measureWakeUps() else { return nil }
        let summary = wakeUps.summary

        var idleCPU: Int64 = 0
        var idleSpan = TimeSpan.zero
        if idleSeconds > 0 {
            let idle = IdleBenchController(duration: .seconds(idleSeconds))
            let idleLoop = try SessionLoop(button: nil, motor: RecordingMotor(), sound: nil, controller: idle,
                                           sinks: LoopSinks(console: DiscardedLines(), stateFile: nil, recorder: nil), settings: settings)
            _ = try LoopThread.run(idleLoop)
            idleCPU = idle.cpuNanoseconds
            idleSpan = idle.measured
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpuPerIdleMinuteMs = idleSpan.nanoseconds > 0 ? Double(idleCPU) / 1e6 * 60e9 / Double(idleSpan.nanoseconds) : 0
        let realtime = wakeUps.realtime

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
            ("missed_deadlines", .int(wakeUps.missed)),
            // Where the worst wake-ups fell (deadline index, µs): a stall at the start is set-up, one
            // anywhere is the machine.
            ("worst", .array(wakeUps.lateness.enumerated().sorted { $0.element > $1.element }.prefix(5).map {
                .array([.int($0.offset), .double($0.element)])
            })),
            ("last_deadline_lateness_us", .double(wakeUps.lateness.last ?? 0)),
            ("idle", .object([
                ("seconds", .double(idleSpan.seconds)),
                ("cpu_ms", .double(Double(idleCPU) / 1e6)),
                ("cpu_ms_per_idle_minute", .double(cpuPerIdleMinuteMs)),
                ("percent_of_one_core", .double(cpuPerIdleMinuteMs / 600)),
            ])),
            ("peak_rss_kib", .int(usage.ru_maxrss)),
        ])
        return result
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
