import ChronoCore

/// The JSON that `chronoception replay` prints: attempts, summary, outcome, the health record the
/// session would produce (or why none), and the effects timeline with instants. docs/REPLAY.md documents it.
public enum ReplayReport {
    public static func build(
        transcript: VirtualClock.Transcript,
        configuration: SessionConfiguration,
        soundAudible: Bool,
        anchor: WallClockAnchor,
        sessionID: String,
        device: String
    ) -> JSONValue {
        let outcome = transcript.settledOutcome(reason: "The session had not finished when observation ended.")
        let decision = HealthRecordBuilder.decide(for: outcome, sessionID: sessionID, device: device, anchor: anchor)

        let statusText: String
        switch outcome.status {
        case .completed: statusText = "completed"
        case .aborted: statusText = "aborted"
        case .interrupted: statusText = "incomplete"
        }

        var members: [(String, JSONValue)] = [
            ("mode", .string(configuration.mode.rawValue)),
            ("target_interval_seconds", .int(configuration.interval.seconds)),
            (configuration.mode.usesAttempts ? "planned_attempts" : "planned_repetitions", .int(configuration.plannedCount)),
            ("status", .string(statusText)),
        ]
        if let reason = outcome.reason { members.append(("status_reason", .string(reason))) }
        members.append(("session_id", .string(sessionID)))
        members.append(("session_start_wall", .string(anchor.wallTime(at: outcome.startedAt).iso8601)))
        members.append(("ended_at_ns", .int(outcome.endedAt.nanoseconds)))
        if configuration.mode == .fear {
            members.append(("sound_audible_at_start", .bool(soundAudible)))
        }
        if configuration.mode.usesAttempts {
            members.append(("attempts", .array(outcome.attempts.map(attemptJSON))))
            if configuration.mode == .reproduction {
                members.append(("presses_ignored_during_presentation", .int(outcome.pressesIgnoredDuringPresentation)))
            }
        } else {
            members.append(("boundaries", .array(outcome.boundaries.map { boundary in
                .object([("index", .int(boundary.index)), ("due_ns", .int(boundary.due.nanoseconds))])
            })))
        }
        members.append(("summary", .object(
            HealthRecordBuilder.metadata(for: outcome, sessionID: sessionID).map { ($0.key, $0.value.json) })))
        members += decision.jsonMembers
        members.append(("timeline", .array(timeline(transcript.effects))))
        if transcript.inputsAfterEnd > 0 {
            members.append(("inputs_after_end_ignored", .int(transcript.inputsAfterEnd)))
        }
        return .object(members)
    }

    static func attemptJSON(_ attempt: AttemptMeasurement) -> JSONValue {
        // Reproduction's attempts carry the presented interval and the ratio; others are as they were.
        var presented: [(String, JSONValue)] = []
        if let start = attempt.presentedStart, let end = attempt.presentedEnd {
            presented = [("presented_start_ns", .int(start.nanoseconds)), ("presented_end_ns", .int(end.nanoseconds))]
        }
        return .object(presented.isEmpty ? attemptMembers(attempt) : attemptMembers(attempt) + presented + [("ratio", .double(attempt.ratio))])
    }

    static func attemptMembers(_ attempt: AttemptMeasurement) -> [(String, JSONValue)] {
        [
            ("index", .int(attempt.index)),
            ("start_mark_ns", .int(attempt.startMark.nanoseconds)),
            ("tap_mark_ns", .int(attempt.tapMark.nanoseconds)),
            ("elapsed_seconds", .double(attempt.elapsedSeconds)),
            ("signed_error_seconds", .double(attempt.signedErrorSeconds)),
            ("abs_error_seconds", .double(attempt.absErrorSeconds)),
            ("percent_error", .double(attempt.percentError)),
            ("abs_percent_error", .double(attempt.absPercentError)),
            ("zone", .string(attempt.zone.rawValue)),
            ("direction", .string(attempt.direction.rawValue)),
            ("feedback", .string(attempt.feedbackText)),
        ]
    }

    /// The effects as timestamped entries, sorted by instant (stable); motor patterns are expanded into
    /// their on/off edges.
    public static func timeline(_ effects: [SessionEffect]) -> [JSONValue] {
        var entries: [(at: Int64, order: Int, value: JSONValue)] = []
        func add(_ at: MonotonicInstant, _ kind: String, _ extra: [(String, JSONValue)] = []) {
            entries.append((at.nanoseconds, entries.count, .object([("at_ns", .int(at.nanoseconds)), ("effect", .string(kind))] + extra)))
        }
        var lastAt = MonotonicInstant.zero
        for effect in effects {
            if case .finished = effect {} else if let at = effect.instant { lastAt = max(lastAt, at) }
            switch effect {
            case .motor(let pattern, let label, let at):
                for edge in pattern.edges(startingAt: at) {
                    add(edge.at, edge.on ? "motor_on" : "motor_off", [("cue", .string(label.text)), ("pattern", .string(pattern.description))])
                }
            case .aversiveSound(let attempt, let at):
                add(at, "aversive_sound", [("attempt", .int(attempt))])
            case .attemptStarted(let attempt, let startMark, let at):
                add(at, "attempt_started", [("attempt", .int(attempt)), ("start_mark_ns", .int(startMark.nanoseconds))])
            case .attemptMeasured(let measurement, let at):
                add(at, "feedback", [("attempt", .int(measurement.index)), ("text", .string(measurement.feedbackText))])
            case .attemptRecorded(let attempt, _, let at):
                add(at, "recorded", [("attempt", .int(attempt))])
            case .boundaryReached(let boundary):
                add(boundary.due, "boundary", [("index", .int(boundary.index))])
            case .pressIgnored(let pressedAt, let reason, let at):
                add(at, "press_ignored", [("pressed_at_ns", .int(pressedAt.nanoseconds)), ("reason", .string(reason))])
            case .abortRequested(let until, let at):
                add(at, "abort_requested", [("confirm_before_ns", .int(until.nanoseconds))])
            case .abortWithdrawn(let reason, let at):
                add(at, "abort_withdrawn", [("reason", .string(reason))])
            case .notice(let text, let at):
                add(at, "notice", [("text", .string(text))])
            case .phaseChanged(let phase, let at):
                add(at, "state", [("state", .string(phase.name))])
            case .finished(let outcome):
                add(lastAt, "finished", [("status", .string(outcome.status.rawValue)), ("ended_at_ns", .int(outcome.endedAt.nanoseconds))])
            }
        }
        return entries.sorted { ($0.at, $0.order) < ($1.at, $1.order) }.map(\.value)
    }
}

extension SessionEffect {
    /// The instant an effect refers to.
    public var instant: MonotonicInstant? {
        switch self {
        case .motor(_, _, let at), .aversiveSound(_, let at), .attemptStarted(_, _, let at),
             .attemptMeasured(_, let at), .attemptRecorded(_, _, let at), .pressIgnored(_, _, let at), .abortRequested(_, let at),
             .abortWithdrawn(_, let at), .notice(_, let at), .phaseChanged(_, let at):
            return at
        case .boundaryReached(let boundary): return boundary.due
        case .finished(let outcome): return outcome.endedAt
        }
    }
}
