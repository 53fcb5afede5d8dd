import ChronoCore
import ChronoRuntime
import Foundation

/// Polls `condition` every 50 ms for up to `limit` seconds without blocking a thread of the pool
/// (the pusher's exchange and the API's requests run on it). The limit is generous: on a 2-core
/// machine the pool has two threads, and suites that run a loop synchronously hold them, so an
/// exchange that takes milliseconds alone can wait tens of seconds under CI's load (20 s was seen
/// to run out). A passing condition returns as soon as it holds.
public func eventually(limit: Double = 90, _ condition: () -> Bool) async -> Bool {
    let deadline = Date(timeIntervalSinceNow: limit)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 50_000_000)
    }
    return condition()
}

/// The finish records a loop handed its recorder, with a wait for real-time tests.
public final class CollectedFinishes: SessionRecorder, @unchecked Sendable {
    private let condition = NSCondition()
    private var records: [SessionFinishRecord] = []

    public init() {}

    public func sessionStarted(_ start: SessionStartRecord) {}

    public func sessionFinished(_ finish: SessionFinishRecord) {
        condition.lock()
        records.append(finish)
        condition.broadcast()
        condition.unlock()
    }

    public var all: [SessionFinishRecord] {
        condition.lock()
        defer { condition.unlock() }
        return records
    }

    /// Waits up to `limit` seconds for `count` records.
    public func wait(count: Int, limit: Double) -> Bool {
        let until = Date(timeIntervalSinceNow: limit)
        condition.lock()
        defer { condition.unlock() }
        while records.count < count {
            if !condition.wait(until: until) { return false }
        }
        return true
    }
}
