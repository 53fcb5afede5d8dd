/// The one JSON of `DeviceState` (snake_case keys, nulls kept): the members the state file and the
/// API share, in one order, and what each adds — the file its `last_session`, `glanceable_privacy` and
/// `pid` (and `GlanceablePrivacy`'s withholding), the API `session_in_progress`. Readers of either
/// see the same names.
extension DeviceState {
    /// The state file's JSON: `pid` lets a reader tell a stale file from a running device, and
    /// `data_dir` (when given) which device's file it is; with the `glanceable-privacy` switch on,
    /// results are withheld.
    public func stateFileJSON(pid: Int32, dataDirectory: String? = nil) -> JSONValue {
        let members = sharedMembers + [
            ("last_session", lastSession.map { last in
                .object([
                    ("date", .string(last.date)),
                    ("interval", .string(last.interval.description)),
                    ("interval_seconds", .int(last.interval.seconds)),
                    ("time_acuity_score", last.timeAcuityScore.map { .int($0) } ?? .null),
                    ("results_withheld", .bool(last.resultsWithheld)),
                ])
            } ?? .null),
            (GlanceablePrivacy.member, .bool(glanceablePrivacy)),
            ("updated", updatedJSON),
            ("pid", .int(Int(pid))),
        ] + (dataDirectory.map { [("data_dir", JSONValue.string($0))] } ?? [])
        return GlanceablePrivacy.shown(.object(members), hidden: glanceablePrivacy)
    }

    /// The API's JSON: `GET /device`'s `device`, an action's answer's `device`, each `state` event.
    public var apiJSON: JSONValue {
        .object(sharedMembers + [("session_in_progress", .bool(sessionInProgress)), ("updated", updatedJSON)])
    }

    private var updatedJSON: JSONValue { updated.map { .string($0.iso8601) } ?? .null }

    private var sharedMembers: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("version", .int(Self.formatVersion)), ("state", .string(state.rawValue))]
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
                ("in_study", .bool(next.inStudy)),
            ])
        })
        add("study", study?.json)
        add("today", today?.json)
        add("reminder", reminder.map { .string($0) })
        // Only on a board with a battery: a board without one shows nothing new.
        if let battery { members.append(("battery", battery.json)) }
        // Only on a card that has been updated.
        if let update { members.append(("update", update.json)) }
        return members
    }
}
