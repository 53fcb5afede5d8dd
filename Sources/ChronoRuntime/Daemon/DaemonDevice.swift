import ChronoCore
import Foundation
import Synchronization

/// The running daemon as the API sees it (`DeviceControl`): the status is the latest state the loop
/// published, actions go to the loop's mailbox, and live events are the daemon's `DeviceEventHub`'s,
/// as they are. Nothing here waits on the loop.
///
/// One hub serves the daemon's whole life; the loop behind it may be replaced (an input-device button
/// unplugged and back), so the current `DaemonHandle` is swapped in with `attach`, and actions asked
/// for while there is none are refused.
public final class DaemonDevice: DeviceControl {
    public let hub: DeviceEventHub
    private let handle = Mutex<DaemonHandle?>(nil)
    private let setupReport = Mutex<DeviceSetup?>(nil)
    /// Prepares and publishes a new snapshot from the store (`SnapshotKeeper.refresh`); blocks on the store.
    private let refreshSnapshot: @Sendable () -> Void

    public init(hub: DeviceEventHub, refreshSnapshot: @escaping @Sendable () -> Void = {}) {
        self.hub = hub
        self.refreshSnapshot = refreshSnapshot
    }

    /// The loop now running (nil while the daemon waits for its button).
    public func attach(_ current: DaemonHandle?) {
        handle.withLock { $0 = current }
    }

    /// The drivers as opened (again after an input-device button came back).
    public func report(setup: DeviceSetup) {
        setupReport.withLock { $0 = setup }
    }

    public func setup() -> DeviceSetup {
        setupReport.withLock { $0 } ?? DeviceSetup(board: nil, parts: [], note: "The device is waiting for its button to be connected.")
    }

    /// Before the loop's first state, the device is not running yet: `Stopped`, with no board.
    public func status() -> DeviceState {
        hub.latestState ?? DeviceState(state: .stopped)
    }

    public func perform(_ action: DeviceAction) async -> DeviceReply {
        guard let current = handle.withLock({ $0 }) else { return .refused(.waitingForButton) }
        return await current.request(action)
    }

    /// The snapshot is prepared again on a thread of its own (it reads the store; the change watcher would
    /// do the same, later), which posts `.snapshotChanged` to the loop when it differs; the loop's answer
    /// to `published()`, posted after it, comes once the state made from it is published.
    public func takeStoreChanges() async {
        let refresh = refreshSnapshot
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread { refresh(); continuation.resume() }
        }
        await handle.withLock({ $0 })?.published()
    }

    public func events() -> AsyncStream<DeviceEvent> {
        AsyncStream { continuation in
            let subscription = hub.subscribe { continuation.yield($0) }
            continuation.onTermination = { _ in subscription.cancel() }
        }
    }
}
