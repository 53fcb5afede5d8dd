import ChronoCore
import ChronoStore
import Hummingbird

/// The device: its glanceable status, and the actions it executes (start, end, discard).
enum DeviceRoutes {
    static func add(to group: RouterGroup<APIRequestContext>, _ state: APIState) {
        group.get("device") { _, _ in
            let status = state.device.status()
            let last = try await state.withStore { try $0.sessionPage(SessionQuery(status: .completed, limit: 1)).sessions.first }
            let withheld = last == nil ? WithheldResults.Withheld() : try await WithheldResults.ids(state)
            return JSONResponse.ok(.object([
                ("device", status.apiJSON),
                ("setup", state.device.setup().json),
                ("last_session", last.map { WithheldResults.shown(lastSessionJSON($0), in: withheld) } ?? .null),
            ]))
        }
        group.post("device/start") { request, context in
            let body = try await JSONBody.read(request, context: context)
            let start = try startRequest(body)
            return try await perform(.start(start), state)
        }
        group.post("device/end") { request, context in
            _ = try await JSONBody.read(request, context: context).only([])
            return try await perform(.endPassive, state)
        }
        group.post("device/discard") { request, context in
            _ = try await JSONBody.read(request, context: context).only([])
            return try await perform(.discard, state)
        }
    }

    /// The last completed session, as glanceable surfaces show it (the complication analogue).
    static func lastSessionJSON(_ line: ProgressReport.SessionLine) -> JSONValue {
        .object([
            ("session_id", .string(line.sessionID)),
            ("date", .string(line.startedAt.localDayText)),
            ("started_at", .string(line.startedAt.iso8601)),
            ("mode", .string(line.mode.rawValue)),
            ("interval", .string(line.interval.description)),
            ("interval_seconds", .int(line.interval.seconds)),
            ("time_acuity_score", line.timeAcuityScore.map { .int($0) } ?? .null),
        ])
    }

    /// `{}` starts the last configuration; `{"preset": "30s"}` the default mode at that interval;
    /// `{"mode": …, "interval": …, "count": …}` exactly that. Validated as the CLI validates them.
    static func startRequest(_ body: JSONBody) throws -> StartRequest {
        try body.only(["preset", "mode", "interval", "count"])
        let preset = try body.string("preset"), modeText = try body.string("mode"), intervalText = try body.string("interval")
        let count = try body.int("count")
        func interval(_ text: String) throws(APIError) -> TrainingInterval {
            do { return try TrainingInterval.parse(text) } catch { throw APIError(.unprocessableContent, "invalid_interval", error.description) }
        }
        if let preset {
            guard modeText == nil, intervalText == nil, count == nil else {
                throw APIError.badRequest("Give either \"preset\" or \"mode\" with \"interval\" (and \"count\"), not both.")
            }
            return .preset(try interval(preset))
        }
        guard let modeText else {
            guard intervalText == nil, count == nil else {
                throw APIError.badRequest("\"interval\" and \"count\" need a \"mode\" (challenge, fear, passive or reproduction); or send {\"preset\": \"30s\"}.")
            }
            return .lastConfiguration
        }
        guard let mode = SessionMode(rawValue: modeText.lowercased()) else {
            throw APIError(.unprocessableContent, "invalid_mode", "'\(modeText)' is not a mode. Use \(SessionMode.listText).")
        }
        guard let intervalText else { throw APIError.badRequest("\"mode\" needs an \"interval\", e.g. \"30s\" or \"5m\".") }
        let target = try interval(intervalText)
        if let count, !SessionConfiguration.countRange.contains(count) {
            throw APIError(.unprocessableContent, "invalid_count", "count must be a whole number from \(SessionConfiguration.countRange.lowerBound) to \(SessionConfiguration.countRange.upperBound); got \(count).")
        }
        // Whether Fear is allowed is the device's decision (its opt-in may come from the daemon's
        // `--i-understand-fear-mode` as well as the setting): it refuses with `.fearNotEnabled` (422).
        return .explicit(mode: mode, interval: target, count: count)
    }

    static func perform(_ action: DeviceAction, _ state: APIState) async throws -> Response {
        let reply = await state.device.perform(action)
        if case .refused(let refusal) = reply { throw APIError.refused(refusal) }
        return JSONResponse.ok(.object([("message", .string(reply.message)), ("device", state.device.status().apiJSON)]), status: .accepted)
    }
}
