@testable import ChronoAPI
import Testing

/// The web companion's files: served at `/` to browsers without a key, same-origin only by CSP,
/// revalidated by ETag; other clients still get the API's JSON index at `/`.
@Suite struct WebRouteTests {
    @Test func browsersGetThePageAndClientsTheJSONIndex() async throws {
        try await APIHarness.with { api in
            let page = try await api.request("/", headers: [("Accept", "text/html,application/xhtml+xml")])
            #expect(page.status == 200)
            #expect(page.headers.first(name: "Content-Type") == "text/html; charset=utf-8")
            #expect(page.text.contains("<script src=\"/app.js?v=\(WebAssets.files["/app.js"]?.etag ?? "")\" defer></script>"))
            #expect(page.headers.first(name: "Content-Security-Policy")?.contains("connect-src 'self'") == true)
            let index = try await api.request("/")
            #expect(index.json["api"] as? String == "/api/v1")
        }
    }

    @Test func assetsAreServedWithTheirTypesAndRevalidate() async throws {
        try await APIHarness.with { api in
            for (path, type) in [("/app.js", "text/javascript; charset=utf-8"), ("/app.css", "text/css; charset=utf-8")] {
                let reply = try await api.request(path)
                #expect(reply.status == 200)
                #expect(reply.headers.first(name: "Content-Type") == type)
                #expect(reply.text == WebAssets.files[path]?.text)
                let etag = try #require(reply.headers.first(name: "ETag"))
                let again = try await api.request(path, headers: [("If-None-Match", etag)])
                #expect(again.status == 304)
                #expect(again.text.isEmpty)
            }
            let missing = try await api.request("/nothing.js")
            #expect(missing.status == 404)
        }
    }

    @Test func thePageNamesVersionedAssetsThatAreKeptWithoutAsking() async throws {
        try await APIHarness.with { api in
            let page = try await api.request("/index.html")
            for path in ["/app.js", "/app.css"] {
                let tag = try #require(WebAssets.files[path]?.etag)
                #expect(page.text.contains("\"\(path)?v=\(tag)\""), "index.html names \(path) with its version")
                let versioned = try await api.request("\(path)?v=\(tag)")
                #expect(versioned.status == 200)
                #expect(versioned.headers.first(name: "Cache-Control") == "public, max-age=31536000, immutable")
                let stale = try await api.request("\(path)?v=0000000000000000")
                #expect(stale.headers.first(name: "Cache-Control") == "no-cache")
            }
        }
    }

    @Test func pagesNeedNoKeyEvenWhereTheAPIDoes() async throws {
        try await APIHarness.with(trust: .socketOnly) { api in
            let page = try await api.request("/app.js")
            let data = try await api.request("/api/v1/settings")
            #expect(page.status == 200)
            #expect(data.status == 401)
        }
    }
}
