import ChronoCore
import Synchronization

/// Fans the device's events out to subscribers and keeps the latest state. Events are delivered on the
/// writer threads in the order the loop produced them; a subscriber must return quickly (hand heavy
/// work to its own queue), since it delays the writer (never the loop).
///
/// A state is stamped here with when the loop published it (`DeviceState.updated`, on the wall
/// clock): the loop compares states without it, so it publishes only when the value changed.
public final class DeviceEventHub: Sendable {
    private struct Subscribers {
        var next = 0
        var handlers: [Int: @Sendable (DeviceEvent, MonotonicInstant) -> Void] = [:]
    }

    private let subscribers = Mutex(Subscribers())
    private let latest = Mutex<DeviceState?>(nil)

    public init() {}

    /// The latest state delivered, stamped (nil before the loop has published one).
    public var latestState: DeviceState? { latest.withLock { $0 } }

    /// Adds a subscriber; keep the subscription and `cancel()` it to stop hearing.
    public func subscribe(_ handler: @escaping @Sendable (DeviceEvent) -> Void) -> DeviceEventSubscription {
        subscribeWithTimes { event, _ in handler(event) }
    }

    /// Adds a subscriber that also hears when the loop published each event (read on the loop as it
    /// posted the event, so the writer thread's queue is part of what a consumer can measure).
    public func subscribeWithTimes(_ handler: @escaping @Sendable (DeviceEvent, MonotonicInstant) -> Void) -> DeviceEventSubscription {
        let id = subscribers.withLock { list in
            defer { list.next += 1 }
            list.handlers[list.next] = handler
            return list.next
        }
        return DeviceEventSubscription { [weak self] in
            _ = self?.subscribers.withLock { $0.handlers.removeValue(forKey: id) }
        }
    }

    /// Called on a writer thread; `publishedAt` is when the loop posted the event.
    func deliver(_ event: DeviceEvent, publishedAt: MonotonicInstant) {
        var event = event
        if case .state(let published) = event {
            let state = published.published(at: MonotonicClock.wallClockAnchor().wallTime(at: publishedAt))
            event = .state(state)
            latest.withLock { $0 = state }
        }
        let handlers = subscribers.withLock { $0.handlers.sorted { $0.key < $1.key }.map(\.value) }
        for handler in handlers { handler(event, publishedAt) }
    }
}

/// A subscription to a `DeviceEventHub`; `cancel()` ends it (safe to call more than once).
public final class DeviceEventSubscription: Sendable {
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
