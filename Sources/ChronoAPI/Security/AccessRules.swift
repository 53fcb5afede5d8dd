import Hummingbird

/// The device API's access rules, for other servers built on the same pieces (the collector): who
/// counts as local, and where a request's key is.
public enum AccessRules {
    /// The Unix socket is local; loopback TCP is local when trusted and its Host header names loopback
    /// (DNS rebinding sends a foreign Host and is treated as remote). A request a proxy passed on
    /// (`ForwardedRequest`) is never local, on either: the proxy's clients are not the owner.
    public static func isLocal(_ request: Request, peer: RequestPeer, trust: LocalTrust) -> Bool {
        if ForwardedRequest.isForwarded(request.headers) { return false }
        switch peer {
        case .unixSocket: return true
        case .remote: return false
        case .loopback: return trust == .socketAndLoopback && LoopbackHost.isLoopback(authority: request.head.authority, otherHostFields: request.headers.filter { $0.name.canonicalName == "host" }.map(\.value))
        }
    }

    /// The key from `Authorization: Bearer …`, else from the browser's cookie.
    public static func presentedSecret(_ request: Request) -> String? {
        AccessMiddleware.presentedSecret(request)
    }

    /// The name of the cookie a browser keeps its key in.
    public static let cookieName = AccessMiddleware.cookieName

    /// The `Set-Cookie` value that gives a browser its key: HttpOnly (scripts cannot read it),
    /// SameSite=Strict (never sent from another site), kept 400 days.
    public static func keyCookie(_ secret: String) -> String {
        Cookie(name: cookieName, value: secret, maxAge: 400 * 86_400, path: "/", httpOnly: true, sameSite: .strict).description
    }

    /// Whether a state-changing browser request comes from this server's own pages: no `Origin`
    /// (command line, apps) or an `Origin` naming the host the request was sent to.
    public static func originIsOwn(_ request: Request) -> Bool {
        guard let origin = request.headers[.origin] else { return true }
        let host = request.head.authority ?? ""
        let own = ["http://\(host)", "https://\(host)"]
        return own.contains(origin) || own.contains(origin.lowercased())
    }
}
