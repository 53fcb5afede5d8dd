import ChronoHardware
import Foundation
import Glibc
import Synchronization

/// Press → user space as the session loop sees it, for any button: a reader thread blocked in poll
/// on the button's descriptor, woken by presses made from this thread every 20 ms; each sample is the
/// read time minus the press's kernel stamp. Used for the evdev button only: tried on gpio-sim under TCG,
/// presses 10 ms apart lost edges (36 of 40 arrived) and cost 10 s more per API, so the GPIO figure stays
/// the single press of its edge check.
struct WakeLatency {
    /// The samples, sorted, in nanoseconds.
    let samples: [Int64]

    var median: Int64 { samples[samples.count / 2] }
    var p90: Int64 { samples[samples.count * 9 / 10] }
    var worst: Int64 { samples[samples.count - 1] }

    /// `median … µs, p90 … µs, max … µs over N presses`.
    var summary: String {
        samples.isEmpty ? "no press read"
            : "median \(median / 1000) µs, p90 \(p90 / 1000) µs, max \(worst / 1000) µs over \(samples.count) presses"
    }

    /// Makes `presses` presses (each released 10 ms later) and measures each one's wake-up.
    static func measure(_ button: ButtonInput & Sendable, presses: Int,
                        press: () throws -> Void, release: () throws -> Void) rethrows -> WakeLatency {
        let log = Samples()
        let finished = DispatchSemaphore(value: 0)
        let reader = Thread {
            var edges = 0
            let giveUp = HardwareClock.monotonicNanoseconds() + 10_000_000_000
            while edges < 2 * presses, HardwareClock.monotonicNanoseconds() < giveUp {
                var entry = pollfd(fd: button.pollDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, 1000)
                guard let read = try? button.readEdges() else { break }
                let readAt = HardwareClock.monotonicNanoseconds()
                edges += read.count
                let late = read.filter { $0.direction == .pressed }.map { readAt - $0.monotonicNanoseconds }
                log.values.withLock { $0 += late }
            }
            finished.signal()
        }
        reader.start()
        let start = HardwareClock.monotonicNanoseconds() + 20_000_000
        for index in 0..<presses {
            HardwareClock.sleep(untilMonotonicNanoseconds: start + Int64(index) * 20_000_000)
            try press()
            HardwareClock.sleep(untilMonotonicNanoseconds: start + Int64(index) * 20_000_000 + 10_000_000)
            try release()
        }
        finished.wait()
        return WakeLatency(samples: log.values.withLock { $0 }.sorted())
    }
}

/// Latency samples shared between the reader thread and the caller.
private final class Samples: Sendable {
    let values = Mutex<[Int64]>([])
}
