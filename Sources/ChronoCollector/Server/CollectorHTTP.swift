import ChronoAPI
import ChronoCore
import ChronoSync
import Foundation
import Hummingbird

/// JSON in and out for the collector's routes, and the mapping of store errors to answers.
enum CollectorHTTP {
    static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(value)
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func json(_ value: JSONValue) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: value.compactText)))
    }

    /// A protocol refusal: `{"error": {"code", "message"}}` with the code's status.
    static func refusal(_ code: SyncRefusalCode, _ message: String, headers: HTTPFields = [:]) -> APIError {
        let status: HTTPResponse.Status
        switch code {
        case .keyRefused: status = .unauthorized
        case .codeRefused: status = .forbidden
        case .protocolMismatch, .deviceEnrolled: status = .conflict
        case .batchTooLarge: status = .contentTooLarge
        case .invalidBatch: status = .unprocessableContent
        case .collectorFull: status = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
        }
        return APIError(status, code.rawValue, message, headers: headers)
    }

    /// Any error from the store or the checks, as an answer.
    static func answer(_ error: any Error) -> any Error {
        if error is APIError || error is HTTPError { return error }
        guard let error = error as? CollectorError else {
            return APIError(.internalServerError, "store_error", "The collector failed: \(error).")
        }
        if let code = error.refusalCode {
            return refusal(code, error.description, headers: code == .keyRefused ? [.wwwAuthenticate: "Bearer realm=\"chronoception-collector\""] : [:])
        }
        switch error {
        case .invalidValue(let message): return APIError(.unprocessableContent, "invalid_value", message)
        case .unknownDevice(let message): return APIError(.notFound, "not_found", message)
        default: return APIError(.serviceUnavailable, "store_error", error.description)
        }
    }

    /// The request body, at most `limit` bytes; more is refused with `tooLarge`.
    static func body(_ request: Request, limit: Int, tooLarge: @autoclosure () -> any Error) async throws -> Data {
        var request = request
        do {
            let buffer = try await request.collectBody(upTo: limit)
            return Data(buffer.readableBytesView)
        } catch {
            throw tooLarge()
        }
    }

    /// The `protocol` member of a body that did not decode as the expected type, to tell a newer
    /// peer's request from a broken one.
    static func protocolVersion(of data: Data) -> Int? {
        struct Versioned: Decodable { var version: Int; enum CodingKeys: String, CodingKey { case version = "protocol" } }
        return (try? JSONDecoder().decode(Versioned.self, from: data))?.version
    }
}
