import ChronoCore
import Hummingbird

/// The routes under `/api/v1` (docs/API.md; `/api/v1/openapi.json` describes them).
enum APIRouter {
    static let prefix = "/api/v1"

    static func make(_ state: APIState) -> Router<APIRequestContext> {
        let router = Router(context: APIRequestContext.self)
        // First: an address that guessed keys or login links too often is refused before anything runs.
        router.add(middleware: FailedAuthMiddleware(limiter: FailedAuthLimiter(), trust: state.configuration.localTrust, who: "device"))
        router.add(middleware: MethodNotAllowedMiddleware())
        router.add(middleware: OriginMiddleware())
        // A browser gets the web companion; any other client the API's JSON index.
        WebRoutes.add(to: router)
        router.get("/") { request, _ in
            if WebRoutes.wantsPage(request) { return WebRoutes.response("/index.html", request) }
            return JSONResponse.ok(.object([
                ("name", .string("Chronoception device API")),
                ("api", .string(prefix)),
                ("openapi", .string(prefix + "/openapi.json")),
            ]))
        }
        // Reachable without a key: what a companion needs to get one.
        let open = router.group(RouterPath(prefix))
        OpenAPIRoutes.add(to: open)
        PairingRoutes.addOpen(to: open, state)
        // Everything else: the local user, or a key.
        let keyed = router.group(RouterPath(prefix)).add(middleware: AccessMiddleware(keys: state.keys, trust: state.configuration.localTrust))
        DeviceRoutes.add(to: keyed, state)
        EventRoutes.add(to: keyed, state)
        SessionRoutes.add(to: keyed, state)
        ProgressRoutes.add(to: keyed, state)
        SettingsRoutes.add(to: keyed, state)
        HealthRoutes.add(to: keyed, state)
        SyncRoutes.add(to: keyed, state)
        StudyRoutes.add(to: keyed, state)
        DataRoutes.add(to: keyed, state)
        LearnRoutes.add(to: keyed)
        KeyRoutes.add(to: keyed, state)
        return router
    }
}
