import Hummingbird

/// The device API's access rules, for other servers built on the same pieces (the collector): who
/// counts as local, and where a request's key is.
public enum AccessRules {
    /// The Unix socket is local; loopback TCP is local when trusted and its Host header names loopback
    /// (DNS rebinding sends a foreign Host and is treated as remote).
    public static func isLocal(_ request: Request, peer: RequestPeer, trust: LocalTrust) -> Bool {
        switch peer {
        case .unixSocket: return true
        case .remote: return false
        case .loopback: return trust == .socketAndLoopback && AccessMiddleware.hostIsLoopback(request.head.authority)
        }
    }

    /// The key from `Authorization: Bearer …`, else from the browser's cookie.
    public static func presentedSecret(_ request: Request) -> String? {
        AccessMiddleware.presentedSecret(request)
    }

    /// The name of the cookie a browser keeps its key in.
    public static let cookieName = AccessMiddleware.cookieName
}
