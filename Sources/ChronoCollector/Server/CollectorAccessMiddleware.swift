import ChronoAPI
import ChronoStore
import Hummingbird

/// The device API's rule for the collector's own read API: the Unix socket and loopback (when
/// trusted) are the local user; anyone else needs a reader key made by `chronoception-collector keys
/// add NAME`, as `Authorization: Bearer KEY` or the browser's cookie.
struct CollectorAccessMiddleware: RouterMiddleware {
    typealias Context = APIRequestContext
    let store: any CollectorStore
    let trust: LocalTrust

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if AccessRules.isLocal(request, peer: context.peer, trust: trust) {
            context.access = .local
            return try await next(request, context)
        }
        guard let secret = AccessRules.presentedSecret(request) else {
            throw APIError(.unauthorized, "key_required", "The collector's API needs a key from beyond loopback: make one on the collector with `chronoception-collector keys add NAME` and send it as `Authorization: Bearer KEY`.",
                           headers: [.wwwAuthenticate: "Bearer realm=\"chronoception-collector\""])
        }
        let key: ReaderKey?
        do { key = try await store.readerKey(keySHA256: CollectorCredentials.keyDigest(secret)) } catch { throw CollectorHTTP.answer(error) }
        guard let key else {
            throw APIError(.unauthorized, "key_unknown", "This key is not (or no longer) a reader key of this collector; make one with `chronoception-collector keys add NAME`.",
                           headers: [.wwwAuthenticate: "Bearer realm=\"chronoception-collector\", error=\"invalid_token\""])
        }
        context.access = .key(APIKeyRecord(id: key.id, name: key.name, kind: .commandLine, createdUnixSeconds: key.createdUnixNanoseconds / 1_000_000_000))
        return try await next(request, context)
    }
}
