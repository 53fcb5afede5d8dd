import ChronoAPI
import Hummingbird

/// The collector's pages (web/collector.html, collector.js and the companion's stylesheet, embedded
/// by scripts/embed-web), served without a key: they hold no data; everything they show comes from
/// `/api/v1` through the access rules.
enum CollectorWebRoutes {
    /// Same-origin only, no inline script: the device companion's policy.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// The collector's own files and the companion's stylesheet.
    static let files = CollectorAssets.files.merging(SharedWebAssets.files) { own, _ in own }

    static func add(to router: Router<APIRequestContext>) {
        for path in files.keys {
            router.get(RouterPath(path)) { request, _ in response(path, request) }
        }
    }

    static func response(_ path: String, _ request: Request) -> Response {
        guard let file = files[path] else { return Response(status: .notFound) }
        let etag = "\"\(file.etag)\""
        var headers: HTTPFields = [
            .contentType: file.contentType, .cacheControl: "no-cache", .eTag: etag,
            .contentSecurityPolicy: contentSecurityPolicy, .xContentTypeOptions: "nosniff",
        ]
        if request.headers[.ifNoneMatch] == etag {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: file.text)))
    }
}
