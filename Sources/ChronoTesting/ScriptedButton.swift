import ChronoHardware
import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A `ButtonInput` whose edges are injected by a test or a simulator instead of a GPIO line.
///
/// It is backed by a non-blocking pipe, so a runtime that waits with `poll`/`ppoll`/`epoll` on
/// `pollDescriptor` really wakes up when an edge is injected from another thread — the same wait
/// path as with the libgpiod button. Each injected edge carries its own timestamp (as the kernel's
/// would), so tests can inject "the press happened at t" independently of when it is delivered.
/// Every edge ever injected is also recorded. Safe to use from several threads.
public final class ScriptedButton: ButtonInput, Sendable {
    private struct State {
        /// The pipe's read end (what the runtime polls) and write end (what `inject` pokes).
        var descriptor: Int32
        var wakeDescriptor: Int32
        var pending: [ButtonEdge] = []
        var injected: [ButtonEdge] = []
        var readFailure: MockDriverError?
    }

    private let state: Mutex<State>

    /// Creates the button with an empty queue.
    /// - Throws: `MockDriverError` if the kernel refuses a pipe (out of descriptors).
    public init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw MockDriverError("pipe failed: \(String(cString: strerror(errno)))") }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        state = Mutex(State(descriptor: ends[0], wakeDescriptor: ends[1]))
    }

    deinit { close() }

    /// Readable (POLLIN) exactly while injected edges wait to be read; -1 once closed.
    public var pollDescriptor: Int32 { state.withLock { $0.descriptor } }

    /// Queues an edge and wakes whoever polls `pollDescriptor`. Ignored after `close()`.
    public func inject(_ edge: ButtonEdge) {
        state.withLock { state in
            guard state.descriptor >= 0, state.wakeDescriptor >= 0 else { return }
            state.pending.append(edge)
            state.injected.append(edge)
            // Under the lock, so "descriptor readable" and "queue non-empty" never disagree.
            // A full pipe (64 KiB of unread wake-ups) is already readable, so a failed write is harmless.
            var one: UInt8 = 1
            _ = write(state.wakeDescriptor, &one, 1)
        }
    }

    /// Queues a press at `pressInstant` and its release `holdNanoseconds` later.
    public func injectTap(atMonotonicNanoseconds pressInstant: Int64, holdNanoseconds: Int64 = 80_000_000) {
        inject(ButtonEdge(.pressed, at: pressInstant))
        inject(ButtonEdge(.released, at: pressInstant + holdNanoseconds))
    }

    /// Makes every later `readEdges()` throw, as a button whose line was lost would.
    public func failReadsFromNowOn(_ error: MockDriverError) {
        state.withLock { $0.readFailure = error }
    }

    /// Closes the pipe's write end: the descriptor reports POLLHUP from now on, as an unplugged input
    /// device's (evdev) does. Later `inject`s are ignored.
    public func hangUp() {
        state.withLock { state in
            guard state.wakeDescriptor >= 0 else { return }
            _ = Glibc.close(state.wakeDescriptor)
            state.wakeDescriptor = -1
        }
    }

    public func readEdges() throws -> [ButtonEdge] {
        try state.withLock { state in
            if let failure = state.readFailure { throw failure }
            guard state.descriptor >= 0 else { return [] }
            var drain = [UInt8](repeating: 0, count: 256)
            while read(state.descriptor, &drain, drain.count) > 0 {} // until EAGAIN: no longer readable
            defer { state.pending.removeAll(keepingCapacity: true) }
            return state.pending
        }
    }

    public func close() {
        state.withLock { state in
            if state.descriptor >= 0 { _ = Glibc.close(state.descriptor) }
            if state.wakeDescriptor >= 0 { _ = Glibc.close(state.wakeDescriptor) }
            state.descriptor = -1
            state.wakeDescriptor = -1
            state.pending.removeAll()
        }
    }

    /// Whether injected edges wait to be read (what makes `pollDescriptor` readable): how a virtual
    /// loop driver sees the button without polling.
    public var hasPendingEdges: Bool {
        state.withLock { $0.descriptor >= 0 && !$0.pending.isEmpty }
    }

    /// Whether `hangUp()` was called (what makes `pollDescriptor` report POLLHUP).
    public var isHungUp: Bool { state.withLock { $0.descriptor >= 0 && $0.wakeDescriptor < 0 } }

    /// Every edge injected so far, oldest first (read or not).
    public var injectedEdges: [ButtonEdge] { state.withLock { $0.injected } }

    /// Plays a script on a background thread: each edge is injected when CLOCK_MONOTONIC reaches its
    /// timestamp (absolute waits, so a long script does not drift). Edges must be in time order.
    @discardableResult
    public func startReplay(_ script: [ButtonEdge]) -> ScriptReplay {
        let replay = ScriptReplay()
        let thread = Thread { [self] in
            for edge in script {
                guard replay.waitUntil(edge.monotonicNanoseconds) else { break }
                inject(edge)
            }
            replay.markFinished()
        }
        thread.name = "ScriptedButton replay"
        thread.start()
        return replay
    }
}

/// A running `ScriptedButton.startReplay(_:)`: can be cancelled or waited for.
public final class ScriptReplay: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init() {}

    /// Stops the replay before its next edge (within about 10 ms).
    public func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Blocks until the replay has injected its last edge or was cancelled.
    public func waitUntilFinished() {
        finished.wait()
        finished.signal() // let later callers through too
    }

    func markFinished() { finished.signal() }

    /// Sleeps until `deadline` in slices, so that `cancel()` is noticed; false when cancelled.
    func waitUntil(_ deadline: Int64) -> Bool {
        let slice: Int64 = 10_000_000
        while !cancelled.load(ordering: .relaxed) {
            let now = HardwareClock.monotonicNanoseconds()
            if now >= deadline { return true }
            HardwareClock.sleep(untilMonotonicNanoseconds: min(deadline, now + slice))
        }
        return false
    }
}
