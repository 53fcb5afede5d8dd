import ChronoCore
import ChronoHardware

/// The loop's clock and its one wait, as a dependency of `SessionLoop`, the way swift-nio's
/// `EmbeddedEventLoop` stands in for a real event loop.
///
/// The product uses `KernelLoopDriver`: CLOCK_MONOTONIC, a timerfd armed at absolute deadlines, one
/// `ppoll` with no timeout, and a thread per worker. Tests use ChronoTesting's `VirtualLoopDriver`, whose
/// time moves only when the test moves it or when the loop waits for its next deadline with nothing
/// pending, and whose workers run on the test's thread, so a whole session runs in microseconds and
/// every motor edge lands on an exact instant.
///
/// The loop calls `wait` and `makeWorker` on its own thread only; `now()` may also be read by what the
/// loop calls (a driver, a worker's job).
public protocol LoopDriver: AnyObject {
    /// The loop's clock: every deadline, motor edge and publication stamp is read here.
    func now() -> MonotonicInstant
    /// Returns once `deadline` has passed (nil: no deadline) or one of `sources` is ready, and says
    /// which. An instant already past returns at once; nothing waits in a busy loop.
    func wait(until deadline: MonotonicInstant?, on sources: LoopSources) throws -> LoopReadiness
    /// Where work the loop hands off runs, in the order it was posted.
    func makeWorker(_ role: LoopWorkerRole) -> LoopWorker
}

/// What a wait watches besides time.
public struct LoopSources {
    /// The button (nil: none, or not watched while a finished session's last cue plays out).
    public let button: ButtonInput?
    let mailbox: LoopMailbox?
    let signals: SignalCatcher?

    /// Whether messages from other threads (or a worker's job) wait in the loop's mailbox.
    public var hasMessages: Bool { mailbox?.hasMessages ?? false }

    /// Time only: the wait after a session ended by itself, while its last cue plays out.
    static var timeOnly: LoopSources { LoopSources(button: nil, mailbox: nil, signals: nil) }
}

/// What one wait found; the loop handles everything that is set, in its fixed order.
public struct LoopReadiness: Sendable, Equatable {
    /// The deadline the wait was given has passed.
    public var deadlinePassed: Bool
    /// The button has edges to read.
    public var buttonEdges: Bool
    /// The button's descriptor hung up (an unplugged input device): it would stay "ready" forever.
    public var buttonClosed: Bool
    /// The mailbox holds messages.
    public var messages: Bool
    /// A stop (or reload) signal arrived.
    public var signals: Bool

    public init(deadlinePassed: Bool = false, buttonEdges: Bool = false, buttonClosed: Bool = false,
                messages: Bool = false, signals: Bool = false) {
        self.deadlinePassed = deadlinePassed
        self.buttonEdges = buttonEdges
        self.buttonClosed = buttonClosed
        self.messages = messages
        self.signals = signals
    }

    /// Whether anything at all is ready.
    public var isEmpty: Bool { self == LoopReadiness() }
}

/// Runs work handed off the loop, in the order it was posted: never on the loop's time.
public protocol LoopWorker: Sendable {
    /// Queues a job; never waits for the work itself.
    func post(_ job: @escaping @Sendable () -> Void)
    /// Runs what is queued, then stops; returns when everything has been done. Called once, after the
    /// loop has ended.
    func finish()
}

/// The loop's workers, each with one purpose.
public enum LoopWorkerRole: String, Sendable, CaseIterable {
    /// The store's side: recorder calls, replies and snapshot refreshes, the "session finished" event
    /// (which must not reach a client before the session's record is saved).
    case records
    /// What people watch: console lines, the state file and the live events. Its own worker, so a
    /// store that is busy (another process holding the write lock for seconds) never holds them back.
    case display
    /// Fear Mode's aversive sound, so the loop never blocks on ALSA.
    case sound

    /// The name of the product's thread for this worker.
    public var threadName: String { "chronoception \(rawValue)" }
}
