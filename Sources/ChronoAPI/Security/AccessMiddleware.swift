import ChronoStore
import Hummingbird

/// Which connections count as the local user without a key.
public enum LocalTrust: String, Hashable, Sendable {
    /// The Unix socket and loopback TCP (the default: a single-user device).
    case socketAndLoopback
    /// The Unix socket only: loopback TCP needs a key too (a machine shared by several users).
    case socketOnly
}

/// Lets a request in as the local user or by key, or refuses it with 401. Applied to every route
/// except the few that must work before a companion has a key (pairing, login, the OpenAPI document).
struct AccessMiddleware: RouterMiddleware {
    typealias Context = APIRequestContext
    let keys: KeyRegistry
    let trust: LocalTrust

    static let cookieName = "chronoception_key"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if isLocal(request, peer: context.peer) {
            context.access = .local
            return try await next(request, context)
        }
        guard let secret = Self.presentedSecret(request) else {
            throw APIError(.unauthorized, "key_required", "This API needs a key from beyond loopback: pair from the companion (POST /api/v1/pairing, approved on the device's button), or make one with `chronoception companion keys add NAME`, then send it as `Authorization: Bearer KEY`.",
                           headers: [.wwwAuthenticate: "Bearer realm=\"chronoception\""])
        }
        let record: APIKeyRecord?
        // The use is noted with the check, off the request's thread; the store is written at most once
        // a minute per key (`KeyUseLedger`), not on every request.
        do {
            record = try await Blocking.run {
                let record = try keys.verify(secret: secret)
                if let record { try keys.noteUse(id: record.id) }
                return record
            }
        } catch let error as StoreError { throw APIError.store(error) }
        guard let record else {
            throw APIError(.unauthorized, "key_unknown", "This key is not (or no longer) valid: it may have been revoked. Pair again.",
                           headers: [.wwwAuthenticate: "Bearer realm=\"chronoception\", error=\"invalid_token\""])
        }
        context.access = .key(record)
        return try await next(request, context)
    }

    /// The Unix socket is local; loopback is local when trusted and the Host names loopback
    /// (`AccessRules.isLocal`, the one rule both servers use).
    func isLocal(_ request: Request, peer: RequestPeer) -> Bool {
        AccessRules.isLocal(request, peer: peer, trust: trust)
    }

    /// The key from `Authorization: Bearer …`, else from the browser's cookie.
    static func presentedSecret(_ request: Request) -> String? {
        if let header = request.headers[.authorization] {
            let parts = header.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" { return String(parts[1]).trimmingWhitespace }
        }
        return request.cookies[cookieName]?.value
    }
}

/// Refuses state-changing requests whose `Origin` is not this server's own (cross-site request
/// forgery from a page the user has open). Requests without `Origin` (command line, apps) pass:
/// browsers always send it on such requests.
struct OriginMiddleware: RouterMiddleware {
    typealias Context = APIRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let method = request.method
        if method != .get && method != .head && method != .options, let origin = request.headers[.origin], !AccessRules.originIsOwn(request) {
            throw APIError(.forbidden, "origin_refused", "A page from \(origin) may not change this device: state-changing requests must come from the companion's own pages, the command line or an app.")
        }
        return try await next(request, context)
    }
}
