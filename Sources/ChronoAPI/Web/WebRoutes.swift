import Hummingbird

/// The web companion's pages (web/, embedded by scripts/embed-web), served at `/` without a key:
/// they hold no data, and a browser beyond loopback needs them to pair. Every byte of data they show
/// comes from `/api/v1`, through the same access rules as any other client.
enum WebRoutes {
    /// Same-origin only: the pages make no request anywhere else, and inline script is refused.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    static func add(to router: Router<APIRequestContext>) {
        for path in WebAssets.files.keys where path != "/index.html" {
            router.get(RouterPath(path)) { request, _ in response(path, request) }
        }
        router.get("/index.html") { request, _ in response("/index.html", request) }
    }

    /// Whether a request for `/` comes from a browser (which gets the page) rather than a client
    /// asking for the API's JSON index.
    static func wantsPage(_ request: Request) -> Bool {
        (request.headers[.accept] ?? "").contains("text/html")
    }

    static func response(_ path: String, _ request: Request) -> Response {
        guard let file = WebAssets.files[path] else { return Response(status: .notFound) }
        let etag = "\"\(file.etag)\""
        // `?v=TAG` is how index.html names this very version: it never changes, so the browser keeps
        // it without asking again; any other request revalidates with the ETag.
        let versioned = request.uri.queryParameters.get("v") == file.etag
        var headers: HTTPFields = [
            .contentType: file.contentType,
            .cacheControl: versioned ? "public, max-age=31536000, immutable" : "no-cache",
            .eTag: etag,
            .contentSecurityPolicy: contentSecurityPolicy,
            .xContentTypeOptions: "nosniff",
        ]
        // Not among swift-http-types' named fields.
        if let referrerPolicy = type(of: headers).Element.Name("Referrer-Policy") { headers[referrerPolicy] = "no-referrer" }
        if request.headers[.ifNoneMatch] == etag {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: file.text)))
    }
}
