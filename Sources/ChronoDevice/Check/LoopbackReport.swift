import ChronoCore
import ChronoRuntime
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The machine a loopback table was measured on: what a reader needs to compare two tables.
public struct SystemFacts: Sendable, Equatable {
    /// `uname -r`.
    public var kernel: String
    /// `uname -m`.
    public var machine: String
    /// cpu0's cpufreq governor, nil when the kernel has no cpufreq (a VM).
    public var governor: String?

    public init(kernel: String, machine: String, governor: String?) {
        self.kernel = kernel
        self.machine = machine
        self.governor = governor
    }

    /// This machine's.
    public static var current: SystemFacts {
        var names = utsname()
        uname(&names)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let governor = (try? String(contentsOfFile: "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", encoding: .utf8))
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        return SystemFacts(kernel: field(names.release), machine: field(names.machine),
                           governor: governor.flatMap { $0.isEmpty ? nil : String($0.prefix(32)) })
    }
}

/// The loopback check's text: on success one table (board, kernel, governor, scheduling, then p50 / p99 /
/// max of each latency in microseconds); otherwise what the edges say about the jumper and how to fix it,
/// with no figures.
public struct LoopbackReport: Sendable {
    public var board: String
    public var wiring: String
    public var pulses: Int
    public var period: TimeSpan
    public var analysis: LoopbackAnalysis
    public var wakeUps: TimingBench.WakeUps?
    public var realtime: RealtimeScheduling.Outcome?
    public var system: SystemFacts

    public init(board: String, wiring: String, pulses: Int, period: TimeSpan, analysis: LoopbackAnalysis,
                wakeUps: TimingBench.WakeUps?, realtime: RealtimeScheduling.Outcome?, system: SystemFacts) {
        self.board = board
        self.wiring = wiring
        self.pulses = pulses
        self.period = period
        self.analysis = analysis
        self.wakeUps = wakeUps
        self.realtime = realtime
        self.system = system
    }

    static let jumperFix = "with the device off, wire a jumper from the motor's driver input to the loopback line "
        + "(docs/HARDWARE.md, \"The loopback jumper\"), then run `chronoception board check --loopback` again"

    public var text: String {
        switch analysis.outcome {
        case .noEdges(let switches):
            return "[FAIL] loopback: the input saw no edge in \(switches) switches of the motor line: no jumper, or a jumper on other pins\n"
                + "       Fix: \(Self.jumperFix); it joins \(wiring)"
        case .inverted:
            return "[FAIL] loopback: the input follows the motor line inverted (each switch on came back as inactive)\n"
                + "       Fix: make `loopback.active_low` the same as `motor.active_low` in the board file, or take the jumper from before any inverting driver"
        case .unrelated(let matched, let switches, let extra):
            return "[FAIL] loopback: the input's edges do not follow the motor line (\(matched) of \(switches) switches came back, \(extra) other edge\(extra == 1 ? "" : "s")): "
                + "a loose jumper, a jumper to another output, or a floating line\n"
                + "       Fix: \(Self.jumperFix); it joins \(wiring)"
        case .measured(let toEdge, let toHandling):
            return table(toEdge: toEdge, toHandling: toHandling)
        }
    }

    private func table(toEdge: LatencySummary, toHandling: LatencySummary) -> String {
        let scheduling: String
        if let realtime {
            scheduling = (realtime.fifo ? "SCHED_FIFO \(realtime.priority)" : "SCHED_OTHER (real-time refused)")
                + (realtime.memoryLocked ? ", memory locked" : ", memory not locked")
        } else {
            scheduling = "SCHED_OTHER (real-time not asked for)"
        }
        var lines = [
            "[ok]   loopback: every switch of the motor line came back on the input",
            "",
            "| chronoception loopback | board \(board) |",
            "|---|---|",
            "| kernel | \(system.kernel) (\(system.machine)) |",
            "| CPU governor | \(system.governor ?? "none reported (no cpufreq)") |",
            "| scheduling | \(scheduling) |",
            "",
            "| µs | p50 | p99 | max | samples |",
            "|---|---:|---:|---:|---:|",
            row("deadline → edge on the input", toEdge),
            row("edge → the loop's handling", toHandling),
        ]
        if let wakeUps {
            lines.append(row("loop wake-up lateness (5 ms deadlines)", wakeUps.summary)
                         + (wakeUps.missed > 0 ? " \(wakeUps.missed) missed" : ""))
        }
        lines.append("")
        lines.append("\(pulses) pulses \(period.nanoseconds / 1_000_000) ms apart; `benchmarks/timing` compares the wake-ups with cyclictest on this machine.")
        return lines.joined(separator: "\n")
    }

    private func row(_ name: String, _ summary: LatencySummary) -> String {
        "| \(name) | \(Self.figure(summary.p50)) | \(Self.figure(summary.p99)) | \(Self.figure(summary.max)) | \(summary.count) |"
    }

    /// A table cell: whole microseconds.
    public static func figure(_ microseconds: Double) -> String { String(format: "%.0f", microseconds) }
}
