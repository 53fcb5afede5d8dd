import ChronoCore
import ChronoStore
import Hummingbird

/// Companion keys: listed, made (by the local user only) and revoked.
enum KeyRoutes {
    static func add(to group: RouterGroup<APIRequestContext>, _ state: APIState) {
        group.get("keys") { _, context in
            let keys = try await state.withStore { _ in try state.keys.list() }
            let current: String? = if case .key(let record) = context.access { record.id } else { nil }
            return JSONResponse.ok(.object([("keys", .array(keys.map { json($0, current: current) }))]))
        }
        group.post("keys") { request, context in
            guard context.access == .local else {
                throw APIError(.forbidden, "local_only", "Keys are made by the local user (the Unix socket or loopback), or by pairing on the device's button.")
            }
            let body = try await JSONBody.read(request, context: context)
            try body.only(["name"])
            guard let name = try body.string("name") else { throw APIError.badRequest("Send a \"name\" for the key, e.g. \"Anna's phone\".") }
            let now = state.nowUnixSeconds
            let (record, secret) = try await state.withStore { _ in try state.keys.issue(name: name, kind: .commandLine, nowUnixSeconds: now) }
            return JSONResponse.ok(keyCreatedJSON(record, secret: secret), status: .created)
        }
        group.delete("keys/:id") { _, context in
            let id = try context.parameters.require("id")
            guard id.utf8.count <= 32, try await state.withStore({ _ in try state.keys.revoke(id: id) }) else {
                throw APIError.notFound("No key \(id). List them with GET /api/v1/keys.")
            }
            return Response(status: .noContent)
        }
        group.post("login-links") { request, context in
            guard context.access == .local else {
                throw APIError(.forbidden, "local_only", "Login links are made by the local user only.")
            }
            _ = try await JSONBody.read(request, context: context).only([])
            return JSONResponse.ok(.object([
                ("path", .string("/api/v1/login?token=" + state.loginTokens.issue())),
                ("expires_in_seconds", .int(Int(state.loginTokens.lifetime.components.seconds))),
            ]), status: .created)
        }
    }

    /// One key as listed: `paired_from` is the requester's address at pairing (null for keys made at
    /// the command line or by a login link); `last_used_at` the latest request with it (null if none).
    static func json(_ record: APIKeyRecord, current: String?) -> JSONValue {
        .object([
            ("id", .string(record.id)),
            ("name", .string(record.name)),
            ("kind", .string(record.kind.rawValue)),
            ("created_at", .string(iso8601(record.createdUnixSeconds))),
            ("paired_from", record.pairedFrom.map { .string($0) } ?? .null),
            ("last_used_at", record.lastUsedUnixSeconds.map { .string(iso8601($0)) } ?? .null),
            ("current", .bool(record.id == current)),
        ])
    }

    static func iso8601(_ unixSeconds: Int64) -> String {
        WallTime(unixNanoseconds: unixSeconds * 1_000_000_000, utcOffsetSeconds: 0).iso8601
    }

    static func keyCreatedJSON(_ record: APIKeyRecord, secret: String?) -> JSONValue {
        .object([
            ("id", .string(record.id)),
            ("name", .string(record.name)),
            ("kind", .string(record.kind.rawValue)),
            ("key", secret.map { .string($0) } ?? .null),
        ])
    }
}
