import ArgumentParser
import ChronoCommandLine
import ChronoCore
import ChronoStore
import Glibc

/// `chronoception store-bench` (hidden; run by benchmarks/store/run): fills a store with synthetic
/// history (10 sessions a day ending now) up to `--sessions`, then times the three operations the
/// issue bounds: the progress query, a 90-day CSV export, and a durable completed-session write.
struct StoreBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store-bench", abstract: "Benchmark the store (progress, CSV export, durable writes).", shouldDisplay: false)
    @OptionGroup var store: StoreOptions
    @Option(help: "Sessions of history to hold before measuring.") var sessions: Int = 100_000
    @Option(help: "Timed repetitions of each operation.") var repeats: Int = 30

    func run() throws {
        try reportingFailures {
            let opened = try store.openStore()
            let now = LocalTimeZone.nowUnixNanoseconds()
            let offset = LocalTimeZone.utcOffsetSeconds(atUnixSeconds: now / 1_000_000_000)
            let fillStart = monotonicNanoseconds()
            let added = try BenchmarkHistory.fill(opened, to: sessions, nowUnixNanoseconds: now, utcOffsetSeconds: offset)
            print("store: \(opened.location.databasePath), \(try opened.sessionCount()) sessions (added \(added) in \(milliseconds(monotonicNanoseconds() - fillStart)) ms)")

            let progress = try measure(repeats) {
                _ = try opened.progress(nowUnixNanoseconds: now, utcOffsetSeconds: offset)
            }
            var rows = 0
            let csv = try measure(repeats) {
                var bytes = 0
                try opened.exportCSV(days: 90, nowUnixNanoseconds: now) { bytes += $0.utf8.count }
                rows = bytes
            }
            try opened.setSetting(.healthLogging, to: "off", nowUnixSeconds: now / 1_000_000_000)
            // Fresh ids every run: a session that is already stored is not written again.
            let label = "write-\(now)"
            var number = 0
            let writeOnly = try measure(repeats) {
                number += 1
                let result = try opened.recordSessionFinished(BenchmarkHistory.finish(number: number, label: label, nowUnixNanoseconds: LocalTimeZone.nowUnixNanoseconds()),
                                                 nowUnixNanoseconds: LocalTimeZone.nowUnixNanoseconds())
                guard result.stored else { throw CommandFailure(message: "session was not stored") }
            }
            try opened.setSetting(.healthLogging, to: "on", nowUnixSeconds: now / 1_000_000_000)
            let withLog = try measure(repeats) {
                number += 1
                let result = try opened.recordSessionFinished(BenchmarkHistory.finish(number: number, label: label, nowUnixNanoseconds: LocalTimeZone.nowUnixNanoseconds()),
                                                              nowUnixNanoseconds: LocalTimeZone.nowUnixNanoseconds())
                guard result.stored, result.health == .written else { throw CommandFailure(message: "health record not written: \(result.health)") }
            }
            print("progress query:                         \(progress)   (bound 50 ms)")
            print("CSV export, 90 days (\(rows / 1024) KiB):         \(csv)   (bound 100 ms)")
            print("durable completed-session write:        \(writeOnly)   (bound 20 ms)")
            print("  … plus fsync'd health-log append:      \(withLog)")
        }
    }

    /// Median and worst of `count` runs, in milliseconds.
    private func measure(_ count: Int, _ body: () throws -> Void) throws -> String {
        var samples: [Int64] = []
        try body()  // warm the page cache and statement caches once
        for _ in 0..<max(count, 1) {
            let start = monotonicNanoseconds()
            try body()
            samples.append(monotonicNanoseconds() - start)
        }
        samples.sort()
        return "median \(milliseconds(samples[samples.count / 2])) ms, p95 \(milliseconds(samples[min(samples.count - 1, samples.count * 95 / 100)])) ms, max \(milliseconds(samples.last!)) ms"
    }

    private func milliseconds(_ nanoseconds: Int64) -> String {
        let tenths = (nanoseconds + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10)"
    }
}

func monotonicNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

/// Synthetic history for the benchmark: deterministic sessions of every mode, 10 a day, over the
/// common intervals, with errors spread like a real person's (a few percent, sometimes more).
enum BenchmarkHistory {
    static let intervals = [30, 60, 120, 300, 300, 300, 600, 900, 1800, 3600]
    static let perDay: Int64 = 10

    static func fill(_ store: ChronoStore, to total: Int, nowUnixNanoseconds now: Int64, utcOffsetSeconds: Int) throws -> Int {
        var added = 0
        var number = 0
        guard try store.sessionCount() < total else { return 0 }
        while number < total {
            let batch = (number..<min(total, number + 5000)).map { index in
                history(number: index, total: total, nowUnixNanoseconds: now, utcOffsetSeconds: utcOffsetSeconds)
            }
            added += try store.importFinishedSessions(batch, nowUnixNanoseconds: now)
            number += batch.count
        }
        return added
    }

    static func history(number: Int, total: Int, nowUnixNanoseconds now: Int64, utcOffsetSeconds: Int) -> SessionFinishRecord {
        // Newest last: session `total − 1` starts two hours ago, and each earlier one 2.4 h before it.
        let startUnix = now - 7_200_000_000_000 - Int64(total - 1 - number) * (86_400_000_000_000 / perDay)
        return finish(number: number, label: "history", startUnixNanoseconds: startUnix, utcOffsetSeconds: utcOffsetSeconds)
    }

    static func finish(number: Int, label: String, nowUnixNanoseconds now: Int64) -> SessionFinishRecord {
        finish(number: number, label: label, startUnixNanoseconds: now - 600_000_000_000, utcOffsetSeconds: 0)
    }

    static func finish(number: Int, label: String, startUnixNanoseconds: Int64, utcOffsetSeconds: Int) -> SessionFinishRecord {
        var random = UInt64(truncatingIfNeeded: number) &* 0x9E37_79B9_7F4A_7C15 | 1
        func next() -> Double {
            random ^= random << 13; random ^= random >> 7; random ^= random << 17
            return Double(random % 1_000_000) / 1_000_000
        }
        let mode: SessionMode = next() < 0.5 ? .challenge : (next() < 0.5 ? .fear : .passive)
        let interval = try! TrainingInterval(seconds: intervals[Int(next() * Double(intervals.count)) % intervals.count])
        let count = 3
        let configuration = try! SessionConfiguration(mode: mode, interval: interval, plannedCount: count)
        let span = interval.span.nanoseconds
        var cursor = MonotonicInstant(nanoseconds: 1_000_000_000)
        var attempts: [AttemptMeasurement] = []
        var boundaries: [PassiveBoundary] = []
        if mode.usesAttempts {
            for index in 1...count {
                let error = (next() - 0.5) * 0.3 * Double(span)
                let tap = cursor + .nanoseconds(span + Int64(error))
                attempts.append(AttemptMeasurement(index: index, target: interval, startMark: cursor, tapMark: tap))
                cursor = tap + .seconds(3)
            }
        } else {
            for index in 1...count { boundaries.append(PassiveBoundary(index: index, due: .zero + .nanoseconds(span * Int64(index)))) }
        }
        let outcome = SessionOutcome(
            status: .completed, configuration: configuration, startedAt: .zero,
            endedAt: mode.usesAttempts ? attempts.last!.tapMark : boundaries.last!.due,
            attempts: attempts, boundaries: boundaries, fearSoundEffective: mode == .fear, reason: nil)
        let anchor = WallClockAnchor(unixNanoseconds: startUnixNanoseconds, monotonic: .zero, utcOffsetSeconds: utcOffsetSeconds)
        // A canonical UUID (the store refuses anything else): the label's FNV-1a hash, then the number.
        let labelHash = label.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
        func hex<T: BinaryInteger>(_ value: T, _ width: Int) -> String {
            let digits = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let id = "\(hex(labelHash, 8))-0000-4000-8000-\(hex(number, 12))"
        return SessionFinishRecord(sessionID: id, outcome: outcome, anchor: anchor, board: "bench",
                                   boundariesFired: boundaries.map(\.due), wallClockSynchronised: true)
    }
}
