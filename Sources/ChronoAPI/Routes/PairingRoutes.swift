import ChronoCore
import ChronoStore
import Foundation
import Hummingbird

/// Getting a key without having one: pairing approved on the device (a long press in idle, after the
/// device announced the request with its name and address), and one-time login links printed by
/// `chronoception companion`.
enum PairingRoutes {
    static func addOpen(to group: RouterGroup<APIRequestContext>, _ state: APIState) {
        // Long-poll: answers when the person approves on the device (201 with the key) or the window
        // passes (403); the window starts when the device shows the request (others may wait before it). `"deliver": "cookie"` (browsers) puts the key only in an HttpOnly cookie.
        group.post("pairing") { request, context in
            let body = try await JSONBody.read(request, context: context)
            try body.only(["name", "deliver"])
            guard let rawName = try body.string("name") else {
                throw APIError.badRequest("Send a \"name\" for this companion, e.g. \"Anna's phone\"; the device lists keys by name.")
            }
            let name = try KeyRegistry.validName(rawName)
            let deliver = try body.string("deliver") ?? "body"
            guard deliver == "body" || deliver == "cookie" else {
                throw APIError.badRequest("\"deliver\" is \"body\" (apps) or \"cookie\" (browsers).")
            }
            // Limits are per asking address: one peer's flood never locks out another, nor the owner.
            let address = PairingAddress.of(context.peer)
            switch state.pairingGate.admit(address: address) {
            case .tooMany(let seconds):
                throw APIError(.tooManyRequests, "rate_limited", "Too many pairing requests from \(address); try again in \(seconds) s.",
                               headers: [.retryAfter: String(seconds)])
            case .alreadyPending:
                throw APIError(.conflict, "pairing_pending", "A pairing request from \(address) is already waiting for the device; try again when it is answered or expires.")
            case .tooManyWaiting(let count):
                throw APIError(.conflict, "pairing_pending", "\(count) pairing requests already wait for the device; try again when they are answered or expire.")
            case .admitted:
                break
            }
            defer { state.pairingGate.finish(address: address) }
            let requester = PairingRequester(name: name, address: address)
            switch await state.device.perform(.approvePairing(requester, window: state.configuration.pairingWindow)) {
            case .refused(let refusal):
                throw APIError.refused(refusal)
            case .pairingApproved, .started, .ended, .discarded:
                let now = state.nowUnixSeconds
                let (record, secret) = try await state.withStore { _ in try state.keys.issue(name: name, kind: .paired, pairedFrom: address, nowUnixSeconds: now) }
                var headers: HTTPFields = [:]
                if deliver == "cookie" { headers[.setCookie] = cookie(secret) }
                return JSONResponse.ok(KeyRoutes.keyCreatedJSON(record, secret: deliver == "body" ? secret : nil), status: .created, headers: headers)
            }
        }
        // The one-time link: spends the token, sets the cookie, and sends the browser on to the
        // companion's first page, so the address bar and history keep no live secret.
        group.get("login") { request, _ in
            guard let token = QueryParameters(request: request).string("token"), state.loginTokens.redeem(token) else {
                // A browser gets a page in words (same 403); API clients the JSON error.
                var error = APIError(.forbidden, "login_link_invalid", "This login link is unknown, already used or expired. Ask for a new one on the device: `chronoception companion` prints one at start.")
                error.page = LoginLinkPage.spent
                throw error
            }
            let now = state.nowUnixSeconds
            let (_, secret) = try await state.withStore { _ in try state.keys.issue(name: "Browser (login link)", kind: .login, nowUnixSeconds: now) }
            return Response(status: .seeOther, headers: [.location: "/", .setCookie: cookie(secret), .cacheControl: "no-store"])
        }
    }

    /// The browser's key (AccessRules.keyCookie: HttpOnly, SameSite=Strict).
    static func cookie(_ secret: String) -> String { AccessRules.keyCookie(secret) }
}
