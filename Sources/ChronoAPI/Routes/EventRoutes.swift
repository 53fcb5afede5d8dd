import ChronoCore
import Hummingbird

/// `GET /api/v1/events`: live events as Server-Sent Events. The first message is the current state,
/// so a client needs no separate status request; then `state`, `feedback` and `session_finished`
/// as they happen, and a keep-alive comment every 15 s.
enum EventRoutes {
    static func add(to group: RouterGroup<APIRequestContext>, _ state: APIState) {
        group.get("events") { _, _ in
            let stream = state.events.subscribe()
            let first = DeviceEvent.state(state.device.status()).serverSentEvent
            let headers: HTTPFields = [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"]
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "retry: 2000\n\n" + first))
                for await message in stream {
                    try await writer.write(ByteBuffer(string: message))
                }
                try await writer.finish(nil)
            })
        }
    }
}
