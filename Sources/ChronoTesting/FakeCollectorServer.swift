import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// A `FakeCollector` served over HTTP on a loopback port, so the device's real client is tested
/// against a real socket. `stop()` shuts it down.
public final class FakeCollectorServer: Sendable {
    public let collector: FakeCollector
    public let port: Int
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    private init(collector: FakeCollector, port: Int, group: ServiceGroup, running: Task<Void, any Error>) {
        self.collector = collector
        self.port = port
        self.group = group
        self.running = running
    }

    public var url: String { "http://127.0.0.1:\(port)" }

    public static func start(_ collector: FakeCollector) async throws -> FakeCollectorServer {
        let router = Router()
        let handler: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            let body = try await request.body.collect(upTo: 16 << 20)
            let authorization = request.headers[.authorization] ?? ""
            let bearer = authorization.hasPrefix("Bearer ") ? String(authorization.dropFirst(7)) : nil
            let answer = collector.handle(path: request.uri.path, body: Data(body.readableBytesView), bearer: bearer)
            return Response(status: HTTPResponse.Status(code: answer.status), headers: [.contentType: "application/json"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
        }
        router.post("/api/v1/sync/enrol", use: handler)
        router.post("/api/v1/sync/batches", use: handler)
        var logger = Logger(label: "fake-collector")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let application = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: nil),
                                      onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) },
                                      logger: logger)
        let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
        let running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            running.cancel()
            throw CancellationError()
        }
        return FakeCollectorServer(collector: collector, port: port, group: group, running: running)
    }

    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await running.value
    }
}
