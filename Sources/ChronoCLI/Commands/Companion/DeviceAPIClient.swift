import AsyncHTTPClient
import ChronoAPI
import Foundation
import NIOCore
import NIOHTTP1

/// The command line's client of the device API: HTTP/1.1 over the Unix socket (AsyncHTTPClient's
/// `http+unix` scheme), as the local user, so no key is needed.
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

    func url(_ path: String) -> String {
        "http+unix://" + socketPath.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "/api/v1" + path
    }

    var unreachable: Failure {
        Failure(description: "No device API at \(socketPath): is `chronoception run` running? Start it (or the service), or give its socket with --socket PATH.", exitCode: 3)
    }

    func request(_ method: HTTPMethod, _ path: String, json: String? = nil) async throws -> Reply {
        guard access(socketPath, F_OK) == 0 else { throw unreachable }
        let client = HTTPClient.shared
        var request = HTTPClientRequest(url: url(path))
        request.method = method
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
        }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: .seconds(60))
        } catch {
            throw unreachable
        }
        let body = try await response.body.collect(upTo: 4 << 20)
        let object = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
        return Reply(status: Int(response.status.code), json: object)
    }

    /// Live events until the stream ends; `handle` gets each event's name and JSON object.
    func followEvents(_ handle: (String, [String: Any]) -> Void) async throws {
        guard access(socketPath, F_OK) == 0 else { throw unreachable }
        let client = HTTPClient.shared
        let response: HTTPClientResponse
        do {
            response = try await client.execute(HTTPClientRequest(url: url("/events")), timeout: .hours(24 * 365))
        } catch {
            throw unreachable
        }
        guard response.status == .ok else {
            throw Failure(description: "The device API refused live events (HTTP \(response.status.code)).", exitCode: 1)
        }
        var pending = ""
        for try await buffer in response.body {
            pending += String(buffer: buffer)
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
        }
    }
}

/// Runs async work from a synchronous command (the command tree's root is synchronous).
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let semaphore = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: Result<T, any Error>!
    Task {
        do { result = .success(try await body()) } catch { result = .failure(error) }
        semaphore.signal()
    }
    semaphore.wait()
    return try result.get()
}
