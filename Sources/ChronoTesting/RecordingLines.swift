import ChronoRuntime
import Foundation

/// A console (`LineOutput`) that keeps every line and lets a test wait, with a limit, for what it
/// expects to see; the loop writes from its writer thread.
public final class RecordingLines: LineOutput, @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [String] = []

    public init() {}

    public func writeLine(_ line: String) {
        condition.lock()
        lines.append(line)
        condition.broadcast()
        condition.unlock()
    }

    /// Every line so far, oldest first.
    public var all: [String] {
        condition.lock()
        defer { condition.unlock() }
        return lines
    }

    /// Waits up to `limit` seconds until `predicate` holds for the lines; returns whether it did.
    public func wait(for predicate: ([String]) -> Bool, limit: Double) -> Bool {
        let until = Date(timeIntervalSinceNow: limit)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(lines) {
            if !condition.wait(until: until) { return predicate(lines) }
        }
        return true
    }

    /// Waits up to `limit` seconds for a line containing `text` without holding a thread: for async
    /// tests, whose blocking waits would take one of the few threads of Swift's cooperative pool (two
    /// on a 2-core machine) from the very server or client they are waiting for.
    public func arrival(ofLineContaining text: String, limit: Double = 20) async -> Bool {
        let until = Date(timeIntervalSinceNow: limit)
        while Date() < until {
            if all.contains(where: { $0.contains(text) }) { return true }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return all.contains(where: { $0.contains(text) })
    }

    /// Waits up to `limit` seconds for a line containing `text`.
    public func wait(forLineContaining text: String, limit: Double = 20) -> Bool {
        wait(for: { $0.contains(where: { $0.contains(text) }) }, limit: limit)
    }
}
