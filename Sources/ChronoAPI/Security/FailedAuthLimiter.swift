import Hummingbird
import Synchronization

/// The failed-authentication limit of one server (the device API or the collector): a
/// `FailedAuthLedger` under a lock, on a monotonic clock the caller may replace.
public final class FailedAuthLimiter: Sendable {
    private let ledger: Mutex<FailedAuthLedger>
    private let now: @Sendable () -> Int64

    public init(limits: FailedAuthLimits = FailedAuthLimits(), now: (@Sendable () -> Int64)? = nil) {
        ledger = Mutex(FailedAuthLedger(limits: limits))
        self.now = now ?? ElapsedClock.nanosecondsSinceNow()
    }

    public var limits: FailedAuthLimits { ledger.withLock { $0.limits } }

    public func retryAfterSeconds(address: String) -> Int64? {
        let instant = now()
        return ledger.withLock { $0.retryAfterSeconds(address: address, now: instant) }
    }

    @discardableResult
    public func recordFailure(address: String, credential: Int?) -> Int64? {
        let instant = now()
        return ledger.withLock { $0.recordFailure(address: address, credential: credential, now: instant) }
    }
}

/// Refuses, with 429 and `Retry-After`, every request from an address that failed to authenticate
/// too often (`FailedAuthLimits`), and counts the failures: a wrong or revoked key (`key_unknown`;
/// the collector's device keys, `key_refused`) and an unknown, spent or expired login link
/// (`login_link_invalid`). One middleware, first on both servers' routers, so every route that checks
/// a credential is covered by the same rule without each route counting for itself.
///
/// The device's own user is never limited: the Unix socket, and loopback when it is trusted as local
/// (`AccessRules.isLocal`), pass untouched — remote failures cannot lock the owner out of their
/// device. Loopback that must present keys (`--local-trust socket`, or a reverse proxy, whose Host is
/// not loopback) is limited as one address of its own, never together with a remote one.
public struct FailedAuthMiddleware: RouterMiddleware {
    public typealias Context = APIRequestContext
    let limiter: FailedAuthLimiter
    let trust: LocalTrust
    /// Named in the refusal: "device" or "collector".
    let who: String

    /// The error codes that are a failed authentication.
    public static let countedCodes: Set<String> = ["key_unknown", "key_refused", "login_link_invalid"]

    public init(limiter: FailedAuthLimiter, trust: LocalTrust, who: String) {
        self.limiter = limiter
        self.trust = trust
        self.who = who
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !AccessRules.isLocal(request, peer: context.peer, trust: trust), let address = FailedAuthLedger.addressKey(context.peer) else {
            return try await next(request, context)
        }
        if let retry = limiter.retryAfterSeconds(address: address) {
            throw refusal(retryAfter: retry)
        }
        do {
            return try await next(request, context)
        } catch let error as APIError where Self.countedCodes.contains(error.code) {
            limiter.recordFailure(address: address, credential: Self.fingerprint(request))
            throw error
        }
    }

    func refusal(retryAfter: Int64) -> APIError {
        let limits = limiter.limits
        return APIError(.tooManyRequests, "too_many_failures",
                        "Too many failed sign-ins from this address (\(limits.failures) wrong keys or login links within \(limits.windowNanoseconds / 1_000_000_000) s): this \(who) answers it again in \(retryAfter) s. Check the key or ask for a new login link meanwhile; other addresses are not affected.",
                        headers: [.retryAfter: String(retryAfter)])
    }

    /// Tells presented credentials apart without keeping them: the key (Bearer or cookie) or the
    /// login link's token, hashed with this process's random seed.
    static func fingerprint(_ request: Request) -> Int? {
        let presented = AccessRules.presentedSecret(request) ?? request.uri.queryParameters.get("token")
        guard let presented else { return nil }
        var hasher = Hasher()
        hasher.combine(presented)
        return hasher.finalize()
    }
}
