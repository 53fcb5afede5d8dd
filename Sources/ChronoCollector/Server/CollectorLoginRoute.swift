import ChronoAPI
import Foundation
import Hummingbird

/// How a browser beyond loopback opens the collector's pages: the person pastes a reader key
/// (printed once by `chronoception-collector keys add NAME`) into the page, which posts it here; a
/// known key comes back as the HttpOnly, SameSite=Strict cookie the read API accepts, so the page's
/// scripts never hold it afterwards and no secret ever sits in a URL.
enum CollectorLoginRoute {
    static let path = "/api/v1/login"

    static func add(to router: Router<APIRequestContext>, store: any CollectorStore) {
        router.post(RouterPath(path)) { request, _ in
            // A page elsewhere must not log this browser in with a key of its choosing (login CSRF).
            guard AccessRules.originIsOwn(request) else {
                throw APIError(.forbidden, "origin_refused", "Only the collector's own page may log in; open it at its own address.")
            }
            let data = try await CollectorHTTP.body(request, limit: 4 * 1024,
                                                    tooLarge: APIError(.contentTooLarge, "body_too_large", "A login is {\"key\": \"…\"}, well under 4 KiB."))
            guard let body = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let secret = (body["key"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), !secret.isEmpty else {
                throw APIError(.badRequest, "invalid_request", "Send {\"key\": \"KEY\"} with a reader key from `chronoception-collector keys add NAME`.")
            }
            let known: ReaderKey?
            do { known = try await store.readerKey(keySHA256: CollectorCredentials.keyDigest(secret)) } catch { throw CollectorHTTP.answer(error) }
            guard known != nil else {
                throw APIError(.unauthorized, "key_unknown", "This is not (or no longer) a reader key of this collector; make one on the collector with `chronoception-collector keys add NAME`.")
            }
            return Response(status: .noContent, headers: [.setCookie: AccessRules.keyCookie(secret), .cacheControl: "no-store"])
        }
    }
}
