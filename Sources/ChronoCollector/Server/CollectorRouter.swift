import ChronoAPI
import ChronoCore
import ChronoSync
import Hummingbird

/// The collector's routes: the sync protocol's two (own credentials), the pages (no data in them),
/// and the read API under `/api/v1` (local user or a reader key).
public enum CollectorRouter {
    public static func make(store: any CollectorStore, configuration: CollectorServerConfiguration) -> Router<APIRequestContext> {
        let state = CollectorState(store: store, configuration: configuration)
        let router = Router(context: APIRequestContext.self)
        // First: an address that guessed device keys or reader keys too often is refused before anything runs.
        router.add(middleware: FailedAuthMiddleware(limiter: FailedAuthLimiter(now: configuration.lockoutClock), trust: configuration.localTrust, who: "collector"))
        SyncRoutes.add(to: router, state)
        CollectorWebRoutes.add(to: router)
        router.get("/") { request, _ in
            if (request.headers[.accept] ?? "").contains("text/html") { return CollectorWebRoutes.response("/collector.html", request) }
            return CollectorHTTP.json(.object([
                ("name", .string("Chronoception collector")),
                ("sync_protocol", .int(SyncProtocol.version)),
                ("enrol", .string(SyncProtocol.enrolPath)),
                ("batches", .string(SyncProtocol.batchesPath)),
                ("api", .string("/api/v1")),
            ]))
        }
        CollectorLoginRoute.add(to: router, store: store)
        let keyed = router.group(RouterPath("/api/v1")).add(middleware: CollectorAccessMiddleware(store: store, trust: configuration.localTrust))
        CollectorReadRoutes.add(to: keyed, state)
        StudyAnalysisRoutes.add(to: keyed, state)
        return router
    }
}
