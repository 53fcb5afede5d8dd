import ChronoCore
import ChronoStore
import Foundation
import Hummingbird

/// Sessions: a filtered, paged list (newest first), one session with its attempts, and the one thing
/// about a session a person may change after it ended: its note.
enum SessionRoutes {
    static let maximumPage = 500

    static func add(to group: RouterGroup<APIRequestContext>, _ state: APIState) {
        group.get("sessions") { request, _ in
            let query = try sessionQuery(QueryParameters(request: request))
            let page = try await state.withStore { try $0.sessionPage(query) }
            let withheld = try await WithheldResults.ids(state)
            return JSONResponse.ok(.object([
                ("sessions", .array(page.sessions.map { WithheldResults.shown($0.json, in: withheld) })),
                ("next_cursor", page.next.map { .string(cursorText($0)) } ?? .null),
            ]))
        }
        group.get("sessions/:id") { _, context in
            let text = try context.parameters.require("id")
            // Ids are compared in their canonical form; anything that is not a UUID names no session.
            guard let id = CanonicalUUID(text)?.text else { throw APIError.notFound("No session \(text.prefix(64)) (a session id is a UUID).") }
            let session = try await state.withStore { try $0.session(id: id) }
            return JSONResponse.ok(WithheldResults.shown(SessionDetailJSON.json(session), in: try await WithheldResults.ids(state)))
        }
        group.patch("sessions/:id") { request, context in
            let text = try context.parameters.require("id")
            guard let id = CanonicalUUID(text)?.text else { throw APIError.notFound("No session \(text.prefix(64)) (a session id is a UUID).") }
            let note = try noteFromBody(try await JSONBody.read(request, context: context))
            let session = try await state.withStore { store in
                try store.setNote(sessionID: id, note: note)
                return try store.session(id: id)
            }
            return JSONResponse.ok(WithheldResults.shown(SessionDetailJSON.json(session), in: try await WithheldResults.ids(state)))
        }
    }

    /// `{"note": "text"}` or `{"note": null}`, through the one validator (`SessionNote`): the note as it
    /// will be stored, nil for none; 422 `session_note` with the words of the fix when refused.
    static func noteFromBody(_ body: JSONBody) throws(APIError) -> String? {
        try body.only(["note"])
        guard let value = body.members["note"] else {
            throw APIError.badRequest("Send the note as {\"note\": \"after coffee\"}, or {\"note\": null} to remove it.")
        }
        if value is NSNull { return nil }
        guard let text = value as? String else { throw APIError.badRequest("\"note\" must be text, or null to remove the note.") }
        do { return try SessionNote.validated(text) } catch {
            throw APIError(.unprocessableContent, SessionNoteViolation.code, error.message)
        }
    }

    static func sessionQuery(_ parameters: QueryParameters) throws(APIError) -> SessionQuery {
        // Mode, interval, days and study: the one validator the command line's filters use too.
        let filters = SessionFilterText(mode: parameters.string("mode"), interval: parameters.string("interval"),
                                        from: parameters.string("from"), to: parameters.string("to"), study: parameters.string("study"))
        var query: SessionQuery
        do { query = try filters.applied(to: SessionQuery(), names: .query) } catch { throw APIError.badRequest(error.message) }
        if let status = parameters.string("status") {
            guard let filter = SessionStatusFilter(rawValue: status) else {
                throw APIError.badRequest("status is one of \(SessionStatusFilter.allCases.map(\.rawValue).joined(separator: ", ")); got '\(status)'.")
            }
            query.status = filter
        }
        query.limit = try parameters.int("limit", in: 1...maximumPage) ?? 50
        if let cursor = parameters.string("cursor") {
            guard let parsed = parseCursor(cursor) else {
                throw APIError.badRequest("cursor must be a next_cursor value from a previous page.")
            }
            query.after = parsed
        }
        return query
    }

    /// `<started_unix_ns>.<session id>`: opaque to clients, stable across inserts.
    static func cursorText(_ cursor: SessionQuery.Cursor) -> String {
        "\(cursor.startedUnixNanoseconds).\(cursor.sessionID)"
    }

    static func parseCursor(_ text: String) -> SessionQuery.Cursor? {
        guard text.utf8.count <= 100, let dot = text.firstIndex(of: "."), let started = Int64(text[..<dot]) else { return nil }
        let id = String(text[text.index(after: dot)...])
        guard !id.isEmpty else { return nil }
        return SessionQuery.Cursor(startedUnixNanoseconds: started, sessionID: id)
    }
}

/// One stored session with its attempts and Passive boundaries.
enum SessionDetailJSON {
    static func json(_ session: StoredSession) -> JSONValue {
        let outcome = session.outcome
        let metrics = outcome.metrics
        let configuration = outcome.configuration
        let hasAttempts = metrics.attemptCount > 0
        let attempts: [JSONValue] = outcome.attempts.map { attempt in
            var members: [(String, JSONValue)] = [
                ("index", .int(attempt.index)),
                ("started_at", .string(session.anchor.wallTime(at: attempt.startMark).iso8601)),
                ("elapsed_seconds", .double(attempt.elapsedSeconds)),
                ("error_seconds", .double(attempt.signedErrorSeconds)),
                ("percent_error", .double(attempt.percentError * 100)),
                ("zone", .string(attempt.zone.rawValue)),
                ("feedback", .string(attempt.feedbackText)),
            ]
            // Reproduction's attempts add the presented interval and the ratio; others are unchanged.
            if let start = attempt.presentedStart, let end = attempt.presentedEnd {
                members += [
                    ("presented_start_at", .string(session.anchor.wallTime(at: start).iso8601)),
                    ("presented_seconds", .double((end - start).seconds)),
                    ("ratio", .double(attempt.ratio)),
                ]
            }
            return .object(members)
        }
        let boundaries: [JSONValue] = outcome.boundaries.enumerated().map { offset, boundary in
            let fired = offset < session.boundariesFired.count ? session.boundariesFired[offset] : nil
            return .object([
                ("index", .int(boundary.index)),
                ("due_at", .string(session.anchor.wallTime(at: boundary.due).iso8601)),
                ("fired_at", fired.map { .string(session.anchor.wallTime(at: $0).iso8601) } ?? .null),
            ])
        }
        return .object([
            ("session_id", .string(session.sessionID)),
            ("mode", .string(configuration.mode.rawValue)),
            ("interval", .string(configuration.interval.description)),
            ("target_interval_seconds", .int(configuration.interval.seconds)),
            ("status", .string(session.isRunning ? "running" : outcome.status.rawValue)),
            ("reason", outcome.reason.map { .string($0) } ?? .null),
            ("started_at", .string(session.startedAt.iso8601)),
            ("planned_count", .int(configuration.plannedCount)),
            ("board", .string(session.board)),
            ("wall_clock_synchronised", .bool(session.wallClockSynchronised)),
            ("time_acuity_score", hasAttempts ? .int(metrics.timeAcuityScore) : .null),
            ("mean_abs_error_seconds", hasAttempts ? .double(metrics.meanAbsErrorSeconds) : .null),
            ("mean_signed_error_seconds", hasAttempts ? .double(metrics.meanSignedErrorSeconds) : .null),
            ("fear_sound_effective", configuration.mode == .fear ? .bool(outcome.fearSoundEffective) : .null),
            ("health_log", session.healthLedger.map { .string($0.state.rawValue) } ?? .null),
            ("timing_late_ms", outcome.timingLateness.map { .double(CueTiming.milliseconds($0)) } ?? .null),
            ("note", session.note.map { .string($0) } ?? .null),
            ("attempts", .array(attempts)),
            ("boundaries", .array(boundaries)),
            // The session record itself (the sync wire form, the fallback file's `session`): raw marks,
            // for a person or a tool that wants the session as the device keeps it. Null while running.
            ("record", session.record?.json ?? .null),
        ])
    }
}
