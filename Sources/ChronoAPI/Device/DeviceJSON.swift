import ChronoCore

/// The API's JSON for device values: the state file's keys (snake_case, nulls kept) so a reader of
/// either sees the same names.
extension DeviceStatus {
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("version", .int(version)),
            ("state", .string(state)),
        ]
        func add(_ key: String, _ value: JSONValue?) { members.append((key, value ?? .null)) }
        add("board", board.map { .string($0) })
        add("mode", mode.map { .string($0.rawValue) })
        add("interval", interval.map { .string($0.description) })
        add("interval_seconds", interval.map { .int($0.seconds) })
        add("attempt", attempt.map { .int($0) })
        add("attempt_count", attemptCount.map { .int($0) })
        add("repetitions_done", repetitionsDone.map { .int($0) })
        add("repetition_count", repetitionCount.map { .int($0) })
        add("next_boundary", nextBoundary.map { .string($0.iso8601) })
        add("fear_sound", fearSound.map { .string($0) })
        add("health", health.map { .string($0) })
        add("last_feedback", lastFeedback.map { .string($0) })
        add("session_id", sessionID.map { .string($0) })
        add("offered_preset", offeredPreset.map { .string($0.description) })
        add("pairing_request", pairingRequest.map { .object([("name", .string($0.name)), ("address", .string($0.address))]) })
        add("next_session", nextSession.map { next in
            .object([
                ("mode", .string(next.mode.rawValue)),
                ("interval", .string(next.interval.description)),
                ("interval_seconds", .int(next.interval.seconds)),
                ("count", .int(next.count)),
            ])
        })
        add("session_in_progress", .bool(sessionInProgress))
        add("updated", updated.map { .string($0.iso8601) })
        return .object(members)
    }
}

extension DeviceFeedback {
    public var json: JSONValue {
        .object([
            ("session_id", sessionID.map { .string($0) } ?? .null),
            ("index", .int(index)),
            ("count", .int(count)),
            ("text", .string(text)),
            ("zone", zone.map { .string($0) } ?? .null),
        ])
    }
}

extension DeviceEvent {
    /// The SSE event name.
    public var name: String {
        switch self {
        case .state: return "state"
        case .feedback: return "feedback"
        case .sessionFinished: return "session_finished"
        }
    }

    public var json: JSONValue {
        switch self {
        case .state(let status): return status.json
        case .feedback(let feedback): return feedback.json
        case .sessionFinished(let id, let status): return .object([("session_id", .string(id)), ("status", .string(status))])
        }
    }

    /// The event as one Server-Sent Events message (`event:` and one `data:` line; JSON has no raw newlines).
    public var serverSentEvent: String {
        "event: \(name)\ndata: \(json.compactText)\n\n"
    }
}
