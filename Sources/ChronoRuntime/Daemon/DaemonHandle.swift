import ChronoCore

/// How any thread talks to a running device daemon (the companion's API, tests) without ever blocking
/// its loop:
/// - `snapshot()`: the latest published `DeviceState` (what the state file shows);
/// - `request(_:)`: a `DeviceAction` posted through the loop's mailbox; the loop decides it at once
///   and the answer comes back on the writer thread (an async function, or a completion closure);
/// - `subscribe(_:)`: every state change, each attempt's feedback and each finished session, on the
///   writer thread.
///
/// Create it from the loop and the hub given to the loop's `LoopSinks.events`.
public struct DaemonHandle: Sendable {
    private let messenger: LoopMessenger
    private let hub: DeviceEventHub

    public init(loop: SessionLoop, events: DeviceEventHub) {
        messenger = loop.messenger
        hub = events
    }

    /// The latest published state; nil until the loop has started.
    public func snapshot() -> DeviceState? { hub.latestState }

    /// Posts `action`; `completion` is called once, off the loop thread, with the loop's answer.
    /// If the loop has already ended, the action is answered `.refused(.stopping)`.
    public func request(_ action: DeviceAction, completion: @escaping @Sendable (DeviceReply) -> Void) {
        messenger.post(.request(action, reply: completion))
    }

    /// Posts `action` and waits (asynchronously) for the loop's answer.
    public func request(_ action: DeviceAction) async -> DeviceReply {
        await withCheckedContinuation { continuation in
            self.request(action) { continuation.resume(returning: $0) }
        }
    }

    /// `completion` is called once, off the loop thread, after everything posted to the loop before this
    /// was taken in and the states it made were published; at once when the loop has ended.
    public func published(_ completion: @escaping @Sendable () -> Void) {
        messenger.post(.published(reply: completion))
    }

    /// Waits (asynchronously) for `published(_:)`'s call.
    public func published() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            published { continuation.resume() }
        }
    }

    /// Hears the device's events until the subscription is cancelled.
    public func subscribe(_ handler: @escaping @Sendable (DeviceEvent) -> Void) -> DeviceEventSubscription {
        hub.subscribe(handler)
    }
}
