import ChronoAPI
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// The command line's client of the device API: HTTP/1.1 over the Unix socket, as the local user, so
/// no key is needed. It speaks through SwiftNIO's own HTTP/1 codec (already in the binary for the
/// server), so the verbs need no further HTTP client library.
struct DeviceAPIClient {
    let socketPath: String

    /// A failure with the line to print.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// 3 when there is no device API to talk to (as `status` without a state file), 1 otherwise.
        var exitCode: Int32
    }

    /// An answer: the status and the JSON object (immutable once read, hence unchecked Sendable).
    struct Reply: @unchecked Sendable {
        var status: Int
        var json: [String: Any]
        var errorMessage: String? { (json["error"] as? [String: Any])?["message"] as? String }
    }

    var unreachable: Failure {
        Failure(description: "No device API at \(socketPath): is `chronoception run` running? Start it (or the service), or give its socket with --socket PATH.", exitCode: 3)
    }

    func request(_ method: HTTPMethod, _ path: String, json: String? = nil) async throws -> Reply {
        var body = ByteBuffer()
        let status = try await exchange(method, path, json: json) { part in
            body.writeImmutableBuffer(part)
            // A reply larger than this is not one of ours.
            return body.readableBytes <= 4 << 20
        }
        let object = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
        return Reply(status: status, json: object)
    }

    /// Live events until the stream ends; `handle` gets each event's name and JSON object.
    func followEvents(_ handle: @escaping (String, [String: Any]) -> Void) async throws {
        var pending = ""
        let status = try await exchange(.GET, "/events", json: nil) { part in
            pending += String(buffer: part)
            while let range = pending.range(of: "\n\n") {
                let block = pending[..<range.lowerBound]
                var name = "message", data = ""
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { data += line.dropFirst(6) }
                }
                pending.removeSubrange(..<range.upperBound)
                guard !data.isEmpty, let object = (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] else { continue }
                handle(name, object)
            }
            return true
        }
        guard status == 200 else {
            throw Failure(description: "The device API refused live events (HTTP \(status)).", exitCode: 1)
        }
    }

    /// One request on a fresh connection; `body` gets each piece of the response body as it arrives
    /// and returns false to stop reading. Returns the response status.
    private func exchange(_ method: HTTPMethod, _ path: String, json: String?,
                          body: (ByteBuffer) -> Bool) async throws -> Int {
        guard access(socketPath, F_OK) == 0 else { throw unreachable }
        let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(unixDomainSocketPath: socketPath) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw unreachable
        }
        return try await channel.executeThenClose { inbound, outbound in
            var head = HTTPRequestHead(version: .http1_1, method: method, uri: "/api/v1" + path)
            head.headers.add(name: "Host", value: "localhost")
            head.headers.add(name: "Connection", value: "close")
            let payload = json.map { ByteBuffer(string: $0) }
            if let payload {
                head.headers.add(name: "Content-Type", value: "application/json")
                head.headers.add(name: "Content-Length", value: String(payload.readableBytes))
            }
            try await outbound.write(.head(head))
            if let payload { try await outbound.write(.body(.byteBuffer(payload))) }
            try await outbound.write(.end(nil))
            var status: Int?
            for try await part in inbound {
                switch part {
                case .head(let response):
                    status = Int(response.status.code)
                case .body(let piece):
                    if !body(piece) { return status ?? 0 }
                case .end:
                    return status ?? 0
                }
            }
            guard let status else { throw unreachable }
            return status
        }
    }
}
