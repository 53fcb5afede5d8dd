import Foundation
import Hummingbird

/// `GET /api/v1/openapi.json`: the API's description, the file kept in the repository
/// (Sources/ChronoAPI/Resources/openapi.json), served as it is.
enum OpenAPIRoutes {
    static let document: ByteBuffer = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"),
              let data = try? Data(contentsOf: url) else {
            return ByteBuffer(string: "{}")
        }
        return ByteBuffer(bytes: data)
    }()

    static func add(to group: RouterGroup<APIRequestContext>) {
        group.get("openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: document))
        }
    }
}
