import Synchronization

/// Messages from other threads to the loop, with the eventfd that wakes it.
final class LoopMailbox: Sendable {
    enum Message: Sendable, Equatable {
        /// Stop the loop (quit key, a test, the daemon being shut down).
        case stop(reason: String)
        /// The sound thread failed to play: sound is lost for the rest of the session.
        case soundLost(reason: String)
    }

    let wakeup: WakeupChannel
    private let messages = Mutex<[Message]>([])

    init() throws(SystemCallError) {
        wakeup = try WakeupChannel()
    }

    func post(_ message: Message) {
        messages.withLock { $0.append(message) }
        wakeup.signal()
    }

    func takeAll() -> [Message] {
        wakeup.drain()
        return messages.withLock { list in
            defer { list.removeAll() }
            return list
        }
    }
}
