import ChronoCore
import Foundation
import Hummingbird

/// Responses and request bodies in JSON. Output is written by the core's `JSONValue` (the same
/// writer as `--json` on the command line); input is parsed by Foundation and then validated with
/// the core's own types.
enum JSONResponse {
    static func ok(_ value: JSONValue, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: value.compactText)))
    }
}

/// A parsed JSON request body: an object whose members are read with type checks.
struct JSONBody {
    let members: [String: Any]

    /// Reads at most `APIServer.maximumBodyBytes`; an empty body is an empty object.
    static func read(_ request: Request, context: APIRequestContext) async throws -> JSONBody {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: APIServer.maximumBodyBytes)
        } catch {
            throw APIError(.contentTooLarge, "body_too_large", "The request body is larger than \(APIServer.maximumBodyBytes) bytes.")
        }
        guard buffer.readableBytes > 0 else { return JSONBody(members: [:]) }
        if let type = request.headers[.contentType], !type.lowercased().hasPrefix("application/json") {
            throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send the body as application/json.")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)), let members = object as? [String: Any] else {
            throw APIError.badRequest("The body is not a JSON object.")
        }
        return JSONBody(members: members)
    }

    func string(_ key: String) throws(APIError) -> String? {
        guard let value = members[key], !(value is NSNull) else { return nil }
        guard let text = value as? String else { throw APIError.badRequest("\"\(key)\" must be a string.") }
        return text
    }

    func int(_ key: String) throws(APIError) -> Int? {
        guard let value = members[key], !(value is NSNull) else { return nil }
        guard !isBoolean(value), let number = value as? NSNumber, number.doubleValue == number.doubleValue.rounded(),
              abs(number.doubleValue) < 1e15 else {
            throw APIError.badRequest("\"\(key)\" must be a whole number.")
        }
        return number.intValue
    }

    /// JSON `true`/`false` (Foundation may hand them over as numbers).
    func isBoolean(_ value: Any) -> Bool {
        if type(of: value) == Bool.self { return true }
        if let number = value as? NSNumber { return type(of: number) == type(of: NSNumber(value: true)) && String(describing: type(of: number)).contains("Bool") }
        return false
    }

    func object(_ key: String) throws(APIError) -> [String: Any]? {
        guard let value = members[key], !(value is NSNull) else { return nil }
        guard let object = value as? [String: Any] else { throw APIError.badRequest("\"\(key)\" must be an object.") }
        return object
    }

    /// Refuses members the route does not know (a typo should not pass silently).
    func only(_ keys: Set<String>) throws(APIError) {
        if let unknown = members.keys.sorted().first(where: { !keys.contains($0) }) {
            throw APIError.badRequest("Unknown field \"\(unknown)\"; this request takes \(keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")).")
        }
    }
}
