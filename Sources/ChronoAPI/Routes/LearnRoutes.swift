import ChronoCore
import Hummingbird

/// `GET /api/v1/learn`: the Learn text from its one source in the core (`LearnText`).
enum LearnRoutes {
    static func add(to group: RouterGroup<APIRequestContext>) {
        group.get("learn") { _, _ in
            JSONResponse.ok(.object([
                ("sections", .array(LearnText.sections.map { .object([("title", .string($0.title)), ("body", .string($0.body))]) })),
            ]))
        }
    }
}
