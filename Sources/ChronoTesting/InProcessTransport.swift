import ChronoDevice
import ChronoStore
import ChronoSync
import Foundation

/// A `FakeCollector` as the device's sync client transport, without a socket.
public struct InProcessTransport: CollectorTransport {
    public let collector: FakeCollector

    public init(collector: FakeCollector) { self.collector = collector }

    public func post(_ path: String, body: Data, bearer: String?) async throws(SyncFailure) -> (status: Int, body: Data) {
        collector.handle(path: path, body: body, bearer: bearer)
    }
}

extension ScratchStore {
    /// An exchange with `collector` in process, on a fixed wall clock.
    public func exchange(_ collector: FakeCollector) -> SyncExchange {
        SyncExchange(store: store, transport: InProcessTransport(collector: collector), now: { 1_795_000_000_000_000_000 })
    }

    /// Enrols with `collector` through the protocol (code "C").
    public func enrol(_ collector: FakeCollector) async throws -> SyncEnrolment {
        _ = collector.with { $0.codes.insert("C") }
        return try await exchange(collector).enrol(url: try CollectorURL(parsing: "http://127.0.0.1:1"), code: "C", board: "desktop", softwareVersion: "0")
    }
}
