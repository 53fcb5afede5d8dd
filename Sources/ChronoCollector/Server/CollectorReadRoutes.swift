import ChronoAPI
import ChronoCore
import Hummingbird

/// The collector's API for people (docs/COLLECTOR.md): devices, sessions, progress per device or per
/// participant, and the CSV of everything.
enum CollectorReadRoutes {
    static func add(to group: RouterGroup<APIRequestContext>, _ state: CollectorState) {
        group.get("devices") { _, _ in
            do {
                let devices = try await state.store.devices()
                return CollectorHTTP.json(.object([("devices", .array(devices.map(CollectorJSON.device)))]))
            } catch { throw CollectorHTTP.answer(error) }
        }
        group.get("sessions") { request, _ in
            do {
                var query = try await known(scope(request, required: false), state.store)
                let parameters = request.uri.queryParameters
                if let mode = parameters["mode"].map(String.init) {
                    guard SessionMode(rawValue: mode) != nil else { throw APIError(.badRequest, "invalid_request", "mode is challenge, fear, passive or reproduction.") }
                    query.mode = mode
                }
                let limit = try integer(parameters["limit"].map(String.init), name: "limit", range: 1...10_000) ?? 100
                query.limit = limit
                if let days = try integer(parameters["days"].map(String.init), name: "days", range: 1...36_600) {
                    query.sinceUnixNanoseconds = state.configuration.now() - Int64(days) * 86_400_000_000_000
                }
                let sessions = try await state.store.sessions(query)
                // Whether a block has ended depends on all of a device's completed study sessions, not
                // only the ones this page of the list holds.
                let basis = sessions.contains { $0.session.study?.feedbackShown == false }
                    ? try await state.store.sessions(CollectorSessionQuery(device: query.device, participant: query.participant)) : sessions
                let withheld = try await CollectorWithheld.ids(basis, nowUnixNanoseconds: state.configuration.now(),
                                                               assignment: { try await state.store.studyAssignment(deviceID: $0) })
                return CollectorHTTP.json(.object([("sessions", .array(sessions.reversed().map {
                    CollectorJSON.session($0, withheld: withheld.contains($0.session.id))
                }))]))
            } catch { throw CollectorHTTP.answer(error) }
        }
        group.get("progress") { request, _ in
            do {
                let query = try await known(scope(request, required: true), state.store)
                let sessions = try await state.store.sessions(query)
                let now = state.configuration.now()
                let withheld = try await CollectorWithheld.ids(sessions, nowUnixNanoseconds: now,
                                                               assignment: { try await state.store.studyAssignment(deviceID: $0) })
                let report = CollectorProgress.report(sessions, nowUnixNanoseconds: now,
                                                      utcOffsetSeconds: state.configuration.utcOffsetSeconds(), withheld: withheld)
                return CollectorHTTP.json(.object([
                    ("device", query.device.map(JSONValue.string) ?? .null),
                    ("participant", query.participant.map(JSONValue.string) ?? .null),
                    ("progress", report.json),
                ]))
            } catch { throw CollectorHTTP.answer(error) }
        }
        group.get("export.csv") { request, _ in
            do {
                let sessions = try await state.store.sessions(try await known(scope(request, required: false), state.store))
                let withheld = try await CollectorWithheld.ids(sessions, nowUnixNanoseconds: state.configuration.now(),
                                                               assignment: { try await state.store.studyAssignment(deviceID: $0) })
                var text = ""
                CollectorCSV.write(sessions, withheld: withheld) { text += $0 }
                return Response(status: .ok, headers: [
                    .contentType: "text/csv; charset=utf-8", .cacheControl: "no-store",
                    .contentDisposition: "attachment; filename=\"chronoception-collector.csv\"",
                ], body: .init(byteBuffer: ByteBuffer(string: text)))
            } catch { throw CollectorHTTP.answer(error) }
        }
    }

    /// `device=NAME|UUID` or `participant=P` (one of them when `required`).
    static func scope(_ request: Request, required: Bool) throws -> CollectorSessionQuery {
        let parameters = request.uri.queryParameters
        let device = parameters["device"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        let participant = parameters["participant"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        if required && (device == nil) == (participant == nil) {
            throw APIError(.badRequest, "invalid_request", "Give one of device=NAME (or its UUID) and participant=P.")
        }
        return CollectorSessionQuery(device: device, participant: participant)
    }

    /// The query when its device and participant are enrolled here; otherwise a 404 naming the fix.
    static func known(_ query: CollectorSessionQuery, _ store: any CollectorStore) async throws -> CollectorSessionQuery {
        guard query.device != nil || query.participant != nil else { return query }
        switch CollectorScope.unknown(query, among: try await store.devices()) {
        case nil: return query
        case .device(let name)?:
            throw APIError(.notFound, "unknown_device", CollectorScope.Unknown.device(name).message(lister: "GET /api/v1/devices or `chronoception-collector devices`"))
        case .participant(let name)?:
            throw APIError(.notFound, "unknown_participant", CollectorScope.Unknown.participant(name).message(lister: "GET /api/v1/devices or `chronoception-collector devices`"))
        }
    }

    static func integer(_ text: String?, name: String, range: ClosedRange<Int>) throws -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw APIError(.badRequest, "invalid_request", "\(name) is a whole number from \(range.lowerBound) to \(range.upperBound); got '\(text)'.")
        }
        return value
    }
}
