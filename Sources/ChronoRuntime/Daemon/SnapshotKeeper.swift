import ChronoCore
import Synchronization

/// Holds the latest `DeviceSnapshot` and prepares new ones off the loop thread.
///
/// Hand-over without blocking the loop: `refresh()` prepares a snapshot on the calling thread (the
/// writer thread, the change watcher, the command before the loop starts) under its own lock, which the
/// loop never takes; it then publishes the value under `latestValue`'s lock, held only for the copy of
/// one struct (reference-counted arrays: a few pointer stores), and wakes the loop through its mailbox.
/// The loop reads `latest` under the same short lock. Nothing the loop waits for ever touches a disk.
public final class SnapshotKeeper: Sendable {
    private let library: DeviceLibrary
    private let latestValue: Mutex<DeviceSnapshot>
    /// Serialises preparations so an older snapshot can never be published after a newer one.
    private let preparing = Mutex(())
    private let waker = Mutex<LoopMessenger?>(nil)

    /// Prepares the first snapshot at once, on the calling thread (before the loop runs).
    public init(library: DeviceLibrary) {
        self.library = library
        latestValue = Mutex(library.prepareSnapshot())
    }

    /// The snapshot the loop uses. Takes the short lock only.
    public var latest: DeviceSnapshot { latestValue.withLock { $0 } }

    /// Tells the loop (through `messenger`) when a new snapshot is published.
    public func connect(_ messenger: LoopMessenger) { waker.withLock { $0 = messenger } }

    /// Prepares a snapshot now and publishes it if it differs. Blocks on the library: never call it on
    /// the loop thread (the daemon hands it to the writer thread as an off-loop job).
    public func refresh() {
        preparing.withLock { _ in
            let fresh = library.prepareSnapshot()
            let changed = latestValue.withLock { current in
                guard current != fresh else { return false }
                current = fresh
                return true
            }
            if changed { waker.withLock { $0 }?.post(.snapshotChanged) }
        }
    }

    /// SIGHUP: re-read the board file (and, with the refresh, the settings).
    public func reload() {
        library.reload()
        refresh()
    }
}
