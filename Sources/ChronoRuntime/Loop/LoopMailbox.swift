import ChronoCore
import Synchronization

/// Messages from other threads to the loop, with the eventfd that wakes it. Posting takes a short lock
/// and writes the eventfd; it never waits for the loop.
final class LoopMailbox: Sendable {
    enum Message: Sendable {
        /// Stop the loop (quit key, a test, the daemon being shut down).
        case stop(reason: String)
        /// The sound thread failed to play: sound is lost for the rest of the session.
        case soundLost(reason: String)
        /// For the controller (a new snapshot, a control request).
        case controller(ControllerMessage)
    }

    private struct Box {
        var messages: [Message] = []
        var closed = false
    }

    let wakeup: WakeupChannel
    private let box = Mutex(Box())

    init() throws(SystemCallError) {
        wakeup = try WakeupChannel()
    }

    /// Queues a message; false when the loop has ended (nothing will read it).
    @discardableResult
    func post(_ message: Message) -> Bool {
        let accepted = box.withLock { box in
            guard !box.closed else { return false }
            box.messages.append(message)
            return true
        }
        if accepted { wakeup.signal() }
        return accepted
    }

    /// Whether messages wait (the virtual driver's "the eventfd is readable").
    var hasMessages: Bool { box.withLock { !$0.messages.isEmpty } }

    func takeAll() -> [Message] {
        wakeup.drain()
        return box.withLock { box in
            defer { box.messages.removeAll() }
            return box.messages
        }
    }

    /// The loop has ended: later posts are refused; returns what was still queued.
    func close() -> [Message] {
        box.withLock { box in
            box.closed = true
            defer { box.messages.removeAll() }
            return box.messages
        }
    }
}

/// What other threads tell the loop's controller.
public enum ControllerMessage: Sendable {
    /// `SnapshotKeeper` published a new snapshot (settings, presets, health status changed).
    case snapshotChanged
    /// A control request; `reply` is called once, off the loop thread.
    case request(DeviceAction, reply: @Sendable (DeviceReply) -> Void)
    /// SIGHUP reached a loop that reloads on it: re-read the board file and the settings.
    case hangup
    /// The battery thread read the battery (once a minute; never on a board without one).
    case battery(BatteryReading)
    /// `reply` is called once, off the loop thread, after every message posted before this one was taken
    /// in and the states they made were published (the API waits on it after writing the store).
    case published(reply: @Sendable () -> Void)
}

/// Posts controller messages to a loop from any thread without waiting for it.
public struct LoopMessenger: Sendable {
    let mailbox: LoopMailbox

    public func post(_ message: ControllerMessage) {
        guard !mailbox.post(.controller(message)) else { return }
        switch message {
        case .request(_, let reply): reply(.refused(.stopping))
        case .published(let reply): reply()
        case .snapshotChanged, .hangup, .battery: break
        }
    }
}
