import Foundation
import Hummingbird

/// `GET /api/v1/openapi.json`: the API's description, the file kept in the repository
/// (Sources/ChronoAPI/Resources/openapi.json, embedded by scripts/embed-web), served as it is.
enum OpenAPIRoutes {
    static let document = ByteBuffer(string: OpenAPIDocument.json)

    static func add(to group: RouterGroup<APIRequestContext>) {
        group.get("openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: document))
        }
    }
}
