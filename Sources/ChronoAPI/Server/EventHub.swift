import ChronoCore
import ServiceLifecycle
import Synchronization

/// Fans the device's live events out to every Server-Sent Events client: the device sees one
/// subscriber however many browsers watch. Also sends the keep-alive comment that stops proxies and
/// browsers from closing an idle stream. A slow client loses its oldest unsent events rather than
/// holding memory (each client's buffer keeps the newest 64).
final class EventHub: Service, Sendable {
    private struct State {
        var nextID = 0
        var subscribers: [Int: AsyncStream<String>.Continuation] = [:]
        var closed = false
    }

    private let state = Mutex(State())
    /// Finished by `close()`: what `run` waits for.
    private let closedSignal = AsyncStream<Void>.makeStream()
    private let device: any DeviceControl
    let keepAlive: Duration

    init(device: any DeviceControl, keepAlive: Duration = .seconds(15)) {
        self.device = device
        self.keepAlive = keepAlive
    }

    /// A stream of SSE messages for one client; it ends when the client goes or the server stops.
    func subscribe() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let id: Int? = state.withLock { state in
            guard !state.closed else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    func broadcast(_ message: String) {
        let targets = state.withLock { Array($0.subscribers.values) }
        for continuation in targets { continuation.yield(message) }
    }

    /// Ends every client's stream and refuses new ones (server shutdown).
    func close() {
        let targets = state.withLock { state in
            state.closed = true
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for continuation in targets { continuation.finish() }
        closedSignal.continuation.finish()
    }

    func run() async throws {
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await event in self.device.events() { self.broadcast(event.serverSentEvent) }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: self.keepAlive)
                        self.broadcast(": keep-alive\n\n")
                    }
                }
                // Until `close()` or cancellation (an AsyncStream's iteration ends on either).
                for await _ in self.closedSignal.stream {}
                group.cancelAll()
            }
        } onGracefulShutdown: {
            self.close()
        }
        close()
    }
}
