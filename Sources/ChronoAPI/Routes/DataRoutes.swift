import ChronoCore
import ChronoStore
import Hummingbird

/// The user's data (SPEC §9): CSV export, and delete-all in two explicit steps — step one returns a
/// confirmation token valid for a minute, step two spends it. The health log file is never touched.
enum DataRoutes {
    static func add(to group: RouterGroup<APIRequestContext>, _ state: APIState) {
        group.get("export.csv") { request, _ in
            let parameters = QueryParameters(request: request)
            let all = try parameters.bool("all") ?? false
            let days = try parameters.int("days", in: 1...36_600) ?? 90
            let now = state.nowUnixNanoseconds
            let text = try await state.withStore { store in
                var text = ""
                try store.exportCSV(days: all ? nil : days, nowUnixNanoseconds: now) { text += $0 }
                return text
            }
            return Response(status: .ok, headers: [
                .contentType: "text/csv; charset=utf-8",
                .contentDisposition: "attachment; filename=\"chronoception-sessions.csv\"",
                .cacheControl: "no-store",
            ], body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        group.post("delete-all") { request, context in
            _ = try await JSONBody.read(request, context: context).only([])
            try refuseDuringSession(state)
            let (sessions, healthLog) = try await state.withStore { (try $0.sessionCount(), try $0.settings().healthLogPath) }
            let token = state.deleteTokens.issue()
            return JSONResponse.ok(.object([
                ("confirmation_token", .string(token)),
                ("expires_in_seconds", .int(Int(state.deleteTokens.lifetime.components.seconds))),
                ("sessions", .int(sessions)),
                ("health_log_file", .string(healthLog)),
                ("message", .string("This deletes every session, preset and setting on the device. Records already written to the health log (\(healthLog)) stay. Confirm with POST /api/v1/delete-all/confirm and this token within a minute.")),
            ]))
        }
        group.post("delete-all/confirm") { request, context in
            let body = try await JSONBody.read(request, context: context)
            try body.only(["confirmation_token"])
            guard let token = try body.string("confirmation_token") else {
                throw APIError.badRequest("Send the \"confirmation_token\" from POST /api/v1/delete-all.")
            }
            try refuseDuringSession(state)
            guard state.deleteTokens.redeem(token) else {
                throw APIError(.conflict, "confirmation_invalid", "This confirmation is unknown, used or expired (they last a minute). Nothing was deleted; start again with POST /api/v1/delete-all.")
            }
            let report = try await state.withStore { try $0.deleteAllLocalData() }
            return JSONResponse.ok(.object([
                ("deleted_sessions", .int(report.sessions)),
                ("deleted_settings", .int(report.settings)),
                ("message", .string("All local data was deleted. The health log file was left untouched.")),
            ]))
        }
    }

    /// Deleting under a running session would leave the device writing to rows that are gone.
    static func refuseDuringSession(_ state: APIState) throws(APIError) {
        if state.device.status().sessionInProgress {
            throw APIError(.conflict, DeviceRefusal.Code.sessionRunning.rawValue, "A session is running on the device. End or discard it first, then delete.")
        }
    }
}
