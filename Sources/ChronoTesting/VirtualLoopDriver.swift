import ChronoCore
import ChronoRuntime
import Synchronization

/// A `LoopDriver` on virtual time: the real `SessionLoop` — its motor gate, its order of events, its
/// mailbox, its workers' jobs — runs on the test's thread, with no thread, no sleep and no timeout, the
/// way swift-nio's `EmbeddedEventLoop` runs a channel.
///
/// Time moves only when the test moves it or when the loop waits for its next deadline with nothing
/// pending: a wait first runs the workers' queued jobs, then returns at once if the button has edges,
/// the mailbox has messages or the deadline has passed; otherwise the clock jumps to the earlier of the
/// deadline and the next step the test scheduled (`at(_:_:)`), runs the steps due, and looks again. So
/// every motor edge, deadline and mark lands on an exact instant a test can assert.
///
/// Workers run inline at the loop's next wait, before time moves, in the order they were made (records,
/// display, sound), each in the order its jobs were posted, and again while one hands work to another; a test may `hold` one (a busy store) and
/// `release` it later. Signals are not delivered here (the subprocess tests cover them). The button must
/// be a `ScriptedButton` (or none): edges a step injects are read at that wait, with their own stamps.
///
/// Not the same as ChronoRuntime's `VirtualLoop`, which feeds a controller directly without the loop.
public final class VirtualLoopDriver: LoopDriver, @unchecked Sendable {
    /// A test action at an instant.
    private struct Step {
        var instant: MonotonicInstant
        var action: () -> Void
    }

    private let clock: Atomic<Int64>
    /// Scheduled steps, in instant order (stable: steps at one instant run in the order scheduled).
    /// Touched only on the test's thread (the loop runs there too).
    private var steps: [Step] = []
    private var workers: [(role: LoopWorkerRole, worker: VirtualWorker)] = []
    private var heldRoles: Set<LoopWorkerRole> = []
    /// How many times the loop waited: with nothing pending it waits once per deadline or step.
    public private(set) var waits = 0

    /// - Parameter start: the clock's first reading.
    public init(start: MonotonicInstant = .zero) {
        clock = Atomic(start.nanoseconds)
    }

    public func now() -> MonotonicInstant { MonotonicInstant(nanoseconds: clock.load(ordering: .relaxed)) }

    /// Runs `action` on the loop's thread when virtual time reaches `instant`, between two turns of the
    /// loop (a step scheduled before the present runs at the next wait).
    public func at(_ instant: MonotonicInstant, _ action: @escaping () -> Void) {
        let index = steps.firstIndex { $0.instant > instant } ?? steps.endIndex
        steps.insert(Step(instant: instant, action: action), at: index)
    }

    /// Moves the clock forward at once, as a loop thread stuck in a driver call (a stall, a stopped
    /// process) would find it when it returns.
    public func advance(by span: TimeSpan) {
        clock.wrappingAdd(span.nanoseconds, ordering: .relaxed)
    }

    /// Keeps a worker's jobs queued (as a store another process holds locked keeps the records writer
    /// busy) until `release`; affects the workers of that role made before and after.
    public func hold(_ role: LoopWorkerRole) {
        heldRoles.insert(role)
        for entry in workers where entry.role == role { entry.worker.isHeld = true }
    }

    /// Lets a held worker go: its queued jobs run at the loop's next wait.
    public func release(_ role: LoopWorkerRole) {
        heldRoles.remove(role)
        for entry in workers where entry.role == role { entry.worker.isHeld = false }
    }

    public func makeWorker(_ role: LoopWorkerRole) -> LoopWorker {
        let worker = VirtualWorker()
        worker.isHeld = heldRoles.contains(role)
        workers.append((role, worker))
        return worker
    }

    public func wait(until deadline: MonotonicInstant?, on sources: LoopSources) throws -> LoopReadiness {
        waits += 1
        while true {
            // Again while a job handed work on to another worker (an off-loop job goes through the
            // display writer to the records writer), as the real threads would run it before time moves.
            while workers.reduce(false, { ran, entry in entry.worker.runQueued() || ran }) {}
            let ready = try readiness(deadline: deadline, sources: sources)
            if !ready.isEmpty { return ready }
            guard let target = [deadline, steps.first?.instant].compactMap({ $0 }).min() else {
                throw VirtualLoopError.waitsForever(at: now())
            }
            if target > now() { clock.store(target.nanoseconds, ordering: .relaxed) }
            while let step = steps.first, step.instant <= now() {
                steps.removeFirst()
                step.action()
            }
        }
    }

    private func readiness(deadline: MonotonicInstant?, sources: LoopSources) throws -> LoopReadiness {
        var ready = LoopReadiness(deadlinePassed: deadline.map { $0 <= now() } ?? false, messages: sources.hasMessages)
        if let button = sources.button {
            guard let scripted = button as? ScriptedButton else { throw VirtualLoopError.buttonNotScripted }
            ready.buttonEdges = scripted.hasPendingEdges
            ready.buttonClosed = scripted.isHungUp
        }
        return ready
    }
}

/// A worker on the test's thread: jobs queue until the loop's next wait (or `finish`) runs them.
final class VirtualWorker: LoopWorker, @unchecked Sendable {
    private let queue = Mutex<[@Sendable () -> Void]>([])
    private let held = Atomic(false)

    var isHeld: Bool {
        get { held.load(ordering: .relaxed) }
        set { held.store(newValue, ordering: .relaxed) }
    }

    func post(_ job: @escaping @Sendable () -> Void) {
        queue.withLock { $0.append(job) }
    }

    /// Runs the queued jobs, and those they post, unless held; true when any ran.
    @discardableResult
    func runQueued() -> Bool {
        var ran = false
        while !isHeld, let job = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            job()
            ran = true
        }
        return ran
    }

    /// The loop has ended: everything queued runs now, held or not.
    func finish() {
        isHeld = false
        runQueued()
    }
}

/// A virtual loop that cannot go on: a test mistake, said as one.
public enum VirtualLoopError: Error, CustomStringConvertible {
    /// The loop waits with no deadline and no step left: in real time it would wait forever.
    case waitsForever(at: MonotonicInstant)
    /// The virtual driver reads a `ScriptedButton`'s queue; another button cannot be driven.
    case buttonNotScripted

    public var description: String {
        switch self {
        case .waitsForever(let instant):
            return "the loop waits at \(instant) with no deadline and nothing scheduled: schedule a stop (or an input) for it"
        case .buttonNotScripted:
            return "the virtual loop driver reads a ScriptedButton; give the loop one (or no button)"
        }
    }
}
