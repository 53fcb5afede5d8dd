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
        var handlers: [Int: @Sendable (RuntimeEvent) -> Void] = [:]
    }

    private let subscribers = Mutex(Subscribers())
    private let latest = Mutex<RuntimeState?>(nil)

    public init() {}

    /// The latest state delivered (nil before the loop has published one).
    public var latestState: RuntimeState? { latest.withLock { $0 } }

    /// Adds a subscriber; keep the subscription and `cancel()` it to stop hearing.
    public func subscribe(_ handler: @escaping @Sendable (RuntimeEvent) -> Void) -> RuntimeSubscription {
        let id = subscribers.withLock { list in
            defer { list.next += 1 }
            list.handlers[list.next] = handler
            return list.next
        }
        return RuntimeSubscription { [weak self] in
            _ = self?.subscribers.withLock { $0.handlers.removeValue(forKey: id) }
        }
    }

    /// Called on the writer thread.
    func deliver(_ event: RuntimeEvent) {
        if case .stateChanged(let state) = event { latest.withLock { $0 = state } }
        let handlers = subscribers.withLock { $0.handlers.sorted { $0.key < $1.key }.map(\.value) }
        for handler in handlers { handler(event) }
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
