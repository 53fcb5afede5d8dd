import Foundation
import Hummingbird

/// Answers 405 with `Allow` (instead of 404) when the path exists but not with this method. The
/// methods per path come from the OpenAPI document itself, the API's one description.
struct MethodNotAllowedMiddleware: RouterMiddleware {
    typealias Context = APIRequestContext

    /// Path templates (segments, `*` for a parameter) and their methods, e.g. `["keys", "*"]: ["DELETE"]`.
    static let table: [([Substring], [String])] = {
        guard let object = try? JSONSerialization.jsonObject(with: Data(OpenAPIRoutes.document.readableBytesView)) as? [String: Any],
              let paths = object["paths"] as? [String: Any] else { return [] }
        return paths.map { path, operations in
            let segments = (APIRouter.prefix + path).split(separator: "/").map { $0.hasPrefix("{") ? "*" : $0 }
            let methods = ((operations as? [String: Any])?.keys.map { $0.uppercased() } ?? []).sorted()
            return (segments, methods.contains("GET") ? methods + ["HEAD"] : methods)
        }
    }()

    static func allowedMethods(path: String) -> [String]? {
        let segments = path.split(separator: "/")
        return table.first { template, _ in
            template.count == segments.count && zip(template, segments).allSatisfy { $0 == "*" || $0 == $1 }
        }?.1
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            guard let allowed = Self.allowedMethods(path: request.uri.path), !allowed.contains(request.method.rawValue) else { throw error }
            throw APIError(.methodNotAllowed, "method_not_allowed", "\(request.uri.path) takes \(allowed.joined(separator: ", ")).",
                           headers: [.allow: allowed.joined(separator: ", ")])
        }
    }
}
