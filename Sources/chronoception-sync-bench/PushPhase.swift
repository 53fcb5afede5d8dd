import ChronoSync
import Foundation

/// What one phase of the benchmark measured.
struct PhaseResult {
    var name: String
    var seconds: Double
    var batches = 0
    var sessions = 0
    var accepted = 0
    var duplicates = 0
    var failures: [String] = []
    var latencies: [Double] = []
    var collectorCPUSeconds: Double?

    var sessionsPerSecond: Double { seconds > 0 ? Double(sessions) / seconds : 0 }

    /// The `fraction` quantile of the batch round trips, in milliseconds (nearest rank).
    func latencyMilliseconds(_ fraction: Double) -> Double {
        guard !latencies.isEmpty else { return 0 }
        let sorted = latencies.sorted()
        let rank = min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))
        return sorted[rank] * 1000
    }

    var line: String {
        var text = String(format: "%@: %d sessions in %d batches, %.2f s, %.0f sessions/s, batch p50 %.1f ms p99 %.1f ms max %.1f ms; accepted %d, duplicates %d",
                          name, sessions, batches, seconds, sessionsPerSecond,
                          latencyMilliseconds(0.5), latencyMilliseconds(0.99), latencyMilliseconds(1), accepted, duplicates)
        if let collectorCPUSeconds { text += String(format: "; collector CPU %.1f s", collectorCPUSeconds) }
        if !failures.isEmpty { text += "; \(failures.count) FAILED (first: \(failures[0]))" }
        return text
    }
}

/// Hands out device numbers to the workers, each device to one worker, so a device's batches go in
/// cursor order as a real device sends them.
actor DeviceQueue {
    private var remaining: [Int]
    init(_ devices: [Int]) { remaining = devices.reversed() }
    func next() -> Int? { remaining.popLast() }
}

/// Pushes, for every device, its batches in order, over `workers` concurrent devices.
func runPhase(name: String, client: CollectorClient, keys: [Int: String], batches: [Int: [EncodedBatch]],
              workers: Int, collector: CollectorProcess?) async -> PhaseResult {
    let queue = DeviceQueue(batches.keys.sorted())
    let cpuBefore = collector?.cpuSeconds()
    let start = DispatchTime.now().uptimeNanoseconds
    var result = await withTaskGroup(of: PhaseResult.self) { group in
        for _ in 0..<workers {
            group.addTask {
                var part = PhaseResult(name: name, seconds: 0)
                while let device = await queue.next() {
                    for batch in batches[device] ?? [] {
                        do {
                            let (receipt, seconds) = try await client.push(batch, key: keys[device] ?? "")
                            part.latencies.append(seconds)
                            part.batches += 1
                            part.sessions += batch.sessions
                            part.accepted += receipt.accepted
                            part.duplicates += receipt.duplicates
                            if receipt.accepted + receipt.duplicates != batch.sessions {
                                part.failures.append("device \(device): receipt counts \(receipt.accepted)+\(receipt.duplicates) for \(batch.sessions) sessions")
                            }
                        } catch {
                            // A device stops at its first refused batch, as its cursor would.
                            part.failures.append("device \(device): \(error)")
                            break
                        }
                    }
                }
                return part
            }
        }
        var total = PhaseResult(name: name, seconds: 0)
        for await part in group {
            total.batches += part.batches
            total.sessions += part.sessions
            total.accepted += part.accepted
            total.duplicates += part.duplicates
            total.failures += part.failures
            total.latencies += part.latencies
        }
        return total
    }
    result.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    if let cpuBefore, let cpuAfter = collector?.cpuSeconds() { result.collectorCPUSeconds = cpuAfter - cpuBefore }
    return result
}

/// The collector's process, read through /proc for its CPU time and peak resident memory.
struct CollectorProcess {
    var pid: Int32

    /// User + system CPU seconds so far (fields 14 and 15 of /proc/PID/stat, in clock ticks).
    func cpuSeconds() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command name: state is field 3, so utime (14) and stime (15) are at 11 and 12.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// A line of /proc/PID/status in kB (VmHWM: peak resident, VmRSS: now).
    func statusKilobytes(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "")
        }
        return nil
    }
}
