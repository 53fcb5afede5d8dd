import ChronoCore
import ChronoStore
import Hummingbird

/// An API failure with its HTTP status, a stable machine code and a sentence for a person; served as
/// `{"error": {"code": …, "message": …}}`.
public struct APIError: Error, HTTPResponseError, CustomStringConvertible {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    /// Extra headers, e.g. `Retry-After` on 429.
    public var headers: HTTPFields
    /// A page for a person, sent instead of the JSON when the request accepts `text/html` (a link
    /// opened in a browser); same status, and still this error to the middleware that counts failures.
    public var page: String?

    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    public var description: String { "\(status.code) \(code): \(message)" }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        if let page, (request.headers[.accept] ?? "").contains("text/html") {
            headers[.contentType] = "text/html; charset=utf-8"
            headers[.cacheControl] = "no-store"
            headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
            headers[.xContentTypeOptions] = "nosniff"
            return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
        }
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        let body = JSONValue.object([("error", .object([("code", .string(code)), ("message", .string(message))]))]).compactText
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, "invalid_request", message) }
    static func notFound(_ message: String) -> APIError { APIError(.notFound, "not_found", message) }

    /// A store failure: a value the store refused is the client's mistake; anything else is ours.
    static func store(_ error: StoreError) -> APIError {
        switch error {
        case .invalidValue(let message): return APIError(.unprocessableContent, "invalid_value", message)
        case .unknownSession(let id): return APIError(.notFound, "not_found", "No session \(id).")
        default: return APIError(.internalServerError, "store_error", String(describing: error))
        }
    }

    /// The device's refusal in its words, with its code and the status that fits it.
    static func refused(_ refusal: DeviceRefusal) -> APIError {
        let status: HTTPResponse.Status
        switch refusal.code {
        // No device is a state of this server, not a failure of it: 409 like the other refusals.
        case .noDevice, .nothingRunning, .sessionRunning, .notPassive, .busy, .consentNeeded, .batteryLow, .updating: status = .conflict
        case .fearNotEnabled, .invalidConfiguration: status = .unprocessableContent
        case .pairingNotApproved: status = .forbidden
        }
        return APIError(status, refusal.code.rawValue, refusal.description)
    }
}
