import Foundation
import Synchronization

/// The writer thread: everything slow the loop produces (console lines, state-file writes, recorder
/// calls) runs here, in the order the loop posted it, so the loop thread never waits on a terminal, a
/// disk or a database. Posting takes a short lock and never blocks on the work itself. The product's
/// `LoopWorker` (`KernelLoopDriver.makeWorker`).
public final class HandoffWriter: LoopWorker {
    private struct Queue {
        var jobs: [@Sendable () -> Void] = []
        var closing = false
    }

    private let queue = Mutex(Queue())
    private let available = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    public init(name: String = "chronoception writer") {
        let thread = Thread { [self] in
            while true {
                self.available.wait()
                let (jobs, closing) = self.queue.withLock { state in
                    defer { state.jobs.removeAll() }
                    return (state.jobs, state.closing)
                }
                for job in jobs { job() }
                if closing && self.queue.withLock({ $0.jobs.isEmpty }) { break }
            }
            self.finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Queues a job.
    public func post(_ job: @escaping @Sendable () -> Void) {
        queue.withLock { $0.jobs.append(job) }
        available.signal()
    }

    /// Runs what is queued, then stops the thread; returns when everything has been done.
    /// Call once, after the loop has ended.
    public func finish() {
        queue.withLock { $0.closing = true }
        available.signal()
        finished.wait()
    }
}
