import ChronoCore

/// How any thread talks to a running device daemon (the companion's API, tests) without ever blocking
/// its loop:
/// - `snapshot()`: the latest published `RuntimeState` (what the state file shows);
/// - `request(_:)`: a control action posted through the loop's mailbox; the loop decides it at once
///   and the answer comes back on the writer thread (an async function, or a completion closure);
/// - `subscribe(_:)`: every state change, each attempt's feedback and each finished session, on the
///   writer thread.
///
/// Create it from the loop and the hub given to the loop's `LoopSinks.events`.
public struct DaemonHandle: Sendable {
    private let messenger: LoopMessenger
    private let hub: RuntimeEventHub

    public init(loop: SessionLoop, events: RuntimeEventHub) {
        messenger = loop.messenger
        hub = events
    }

    /// The latest published state; nil until the loop has started.
    public func snapshot() -> RuntimeState? { hub.latestState }

    /// Posts `request`; `completion` is called once, off the loop thread, with the loop's answer.
    /// If the loop has already ended, the request is answered `.refused(.stopping)`.
    public func request(_ request: DaemonRequest, completion: @escaping @Sendable (DaemonReply) -> Void) {
        messenger.post(.request(request, reply: completion))
    }

    /// Posts `request` and waits (asynchronously) for the loop's answer.
    public func request(_ request: DaemonRequest) async -> DaemonReply {
        await withCheckedContinuation { continuation in
            self.request(request) { continuation.resume(returning: $0) }
        }
    }

    /// Hears runtime events until the subscription is cancelled.
    public func subscribe(_ handler: @escaping @Sendable (RuntimeEvent) -> Void) -> RuntimeSubscription {
        hub.subscribe(handler)
    }
}
