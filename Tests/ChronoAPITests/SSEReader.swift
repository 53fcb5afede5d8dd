import AsyncHTTPClient
import NIOCore

/// Reads Server-Sent Events from a streaming response body, skipping comments and `retry:`.
struct SSEReader {
    struct Event {
        var name: String
        var data: String
    }

    var iterator: HTTPClientResponse.Body.AsyncIterator
    var pending = ""

    init(_ iterator: HTTPClientResponse.Body.AsyncIterator) {
        self.iterator = iterator
    }

    mutating func next() async throws -> Event? {
        while true {
            if let range = pending.range(of: "\n\n") {
                let block = String(pending[..<range.lowerBound])
                pending.removeSubrange(..<range.upperBound)
                var name = "message", data: [String] = []
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
                }
                if data.isEmpty { continue }
                return Event(name: name, data: data.joined(separator: "\n"))
            }
            guard let buffer = try await iterator.next() else { return nil }
            pending += String(buffer: buffer)
        }
    }
}

enum HTTPClientRequestFactory {
    static func get(_ url: String) -> HTTPClientRequest {
        HTTPClientRequest(url: url)
    }
}
