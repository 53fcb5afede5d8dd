import ChronoCore
import Synchronization

/// What a subscriber of the running device hears, delivered on the writer thread (never the loop).
public enum RuntimeEvent: Hashable, Sendable {
    /// The device's state changed (the same value the state file shows).
    case stateChanged(RuntimeState)
    /// An attempt was measured: its feedback.
    case attemptFeedback(sessionID: String, measurement: AttemptMeasurement)
    /// A session finished, with its outcome (completed, aborted or interrupted).
    case sessionFinished(sessionID: String, outcome: SessionOutcome)
}

/// Fans runtime events out to subscribers and keeps the latest state. Events are delivered on the
/// writer thread in the order the loop produced them; a subscriber must return quickly (hand heavy work
/// to its own queue), since it delays the writer (never the loop).
public final class RuntimeEventHub: Sendable {
    private struct Subscribers {
        var next = 0
        var handlers: [Int: @Sendable (RuntimeEvent, MonotonicInstant) -> Void] = [:]
    }

    private let subscribers = Mutex(Subscribers())
    private let latest = Mutex<(state: RuntimeState, publishedAt: MonotonicInstant)?>(nil)

    public init() {}

    /// The latest state delivered (nil before the loop has published one).
    public var latestState: RuntimeState? { latest.withLock { $0?.state } }

    /// When the loop published the latest state (nil before it has published one).
    public var latestStatePublishedAt: MonotonicInstant? { latest.withLock { $0?.publishedAt } }

    /// Adds a subscriber; keep the subscription and `cancel()` it to stop hearing.
    public func subscribe(_ handler: @escaping @Sendable (RuntimeEvent) -> Void) -> RuntimeSubscription {
        subscribeWithTimes { event, _ in handler(event) }
    }

    /// Adds a subscriber that also hears when the loop published each event (read on the loop as it
    /// posted the event, so the writer thread's queue is part of what a consumer can measure).
    public func subscribeWithTimes(_ handler: @escaping @Sendable (RuntimeEvent, MonotonicInstant) -> Void) -> RuntimeSubscription {
        let id = subscribers.withLock { list in
            defer { list.next += 1 }
            list.handlers[list.next] = handler
            return list.next
        }
        return RuntimeSubscription { [weak self] in
            _ = self?.subscribers.withLock { $0.handlers.removeValue(forKey: id) }
        }
    }

    /// Called on the writer thread; `publishedAt` is when the loop posted the event.
    func deliver(_ event: RuntimeEvent, publishedAt: MonotonicInstant) {
        if case .stateChanged(let state) = event { latest.withLock { $0 = (state, publishedAt) } }
        let handlers = subscribers.withLock { $0.handlers.sorted { $0.key < $1.key }.map(\.value) }
        for handler in handlers { handler(event, publishedAt) }
    }
}

/// A subscription to a `RuntimeEventHub`; `cancel()` ends it (safe to call more than once).
public final class RuntimeSubscription: Sendable {
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Mutex(onCancel)
    }

    public func cancel() {
        onCancel.withLock { handler in
            defer { handler = nil }
            return handler
        }?()
    }
}
