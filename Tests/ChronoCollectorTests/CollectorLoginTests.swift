import ChronoAPI
import ChronoCollector
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// A browser beyond loopback opens the pages by pasting a reader key: the login answers with the
/// HttpOnly, SameSite=Strict cookie the read API then accepts; an unknown key, an empty body and a
/// page from another site are refused and set nothing.
@Suite("Collector login")
struct CollectorLoginTests {
    typealias F = CollectorFixtures
    typealias Routes = SyncRouteTests

    static func login(_ client: any TestClientProtocol, body: String, origin: String? = nil) async throws -> Routes.Answer {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let origin { headers[.origin] = origin }
        return try await client.execute(uri: "/api/v1/login", method: .post, headers: headers, body: ByteBuffer(string: body)) { response in
            Routes.Answer(status: response.status, text: String(buffer: response.body), headers: response.headers)
        }
    }

    @Test func aKnownKeyBecomesTheBrowsersCookieAndOpensTheReadAPI() async throws {
        try await StoreKind.sqlite.withStore { store in
            let secret = CollectorCredentials.newReaderKey()
            try await store.addReaderKey(ReaderKey(id: "r1", name: "laptop", createdUnixNanoseconds: F.now), keySHA256: CollectorCredentials.keyDigest(secret))
            try await Routes.withClient(store) { client in
                let answer = try await Self.login(client, body: "{\"key\": \" \(secret)\\n\"}")
                #expect(answer.status == .noContent)
                let cookie = try #require(answer.headers[.setCookie])
                #expect(cookie.hasPrefix("\(AccessRules.cookieName)=\(secret);"))
                #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
                let read = try await client.execute(uri: "/api/v1/devices", method: .get, headers: [.cookie: "\(AccessRules.cookieName)=\(secret)"]) { response in
                    response.status
                }
                #expect(read == .ok)
            }
        }
    }

    @Test func refusalsSetNoCookie() async throws {
        try await StoreKind.sqlite.withStore { store in
            let secret = CollectorCredentials.newReaderKey()
            try await store.addReaderKey(ReaderKey(id: "r1", name: "laptop", createdUnixNanoseconds: F.now), keySHA256: CollectorCredentials.keyDigest(secret))
            try await Routes.withClient(store) { client in
                let unknown = try await Self.login(client, body: "{\"key\": \"\(CollectorCredentials.newReaderKey())\"}")
                #expect(unknown.status == .unauthorized && unknown.errorCode == "key_unknown")
                let empty = try await Self.login(client, body: "{\"key\": \"  \"}")
                #expect(empty.status == .badRequest && empty.errorCode == "invalid_request")
                let notJSON = try await Self.login(client, body: "key=\(secret)")
                #expect(notJSON.status == .badRequest)
                // Login CSRF: another site's page posting a key of its choosing.
                let foreign = try await Self.login(client, body: "{\"key\": \"\(secret)\"}", origin: "https://evil.example")
                #expect(foreign.status == .forbidden && foreign.errorCode == "origin_refused")
                for answer in [unknown, empty, notJSON, foreign] { #expect(answer.headers[.setCookie] == nil) }
            }
        }
    }
}
