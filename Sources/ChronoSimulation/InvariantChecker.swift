import ChronoCore

/// Checks one simulated session against what must always hold, recomputing the spec's arithmetic
/// independently of the core (plain formulas from SPEC §3–§4, no shared helpers).
public struct InvariantChecker {
    /// The board's safe maximum motor on-time that no vibration may exceed.
    public var motorSafeMaximum: TimeSpan
    public var anchor: WallClockAnchor

    public init(motorSafeMaximum: TimeSpan = .milliseconds(1000), anchor: WallClockAnchor) {
        self.motorSafeMaximum = motorSafeMaximum
        self.anchor = anchor
    }

    /// Every violated invariant, in words; empty when the session is sound.
    public func violations(
        scenario: SimulatedScenario, transcript: VirtualClock.Transcript, record: HealthRecordBuilder.Decision
    ) -> [String] {
        var problems: [String] = transcript.deadlinesInThePast.map { "deadline in the past: \($0)" }
        let configuration = scenario.configuration
        guard let outcome = transcript.outcome else {
            problems.append("the session never finished")
            if record.record != nil { problems.append("an unfinished session produced a health record") }
            return problems
        }
        if outcome.status != scenario.expectedStatus {
            problems.append("status \(outcome.status.rawValue), expected \(scenario.expectedStatus.rawValue)")
        }
        if outcome.status != .completed, record.record != nil {
            problems.append("a \(outcome.status.rawValue) session produced a health record")
        }

        if configuration.mode == .reproduction {
            problems += checkPresentations(outcome, scenario: scenario)
        }
        if configuration.mode.usesAttempts {
            problems += checkAttempts(outcome, scenario: scenario)
            problems += checkSound(outcome, scenario: scenario, effects: transcript.effects)
        } else {
            problems += checkBoundaries(outcome, scenario: scenario)
        }
        problems += checkMotor(transcript.effects)
        problems += checkRecord(outcome, decision: record)
        return problems
    }

    private func checkAttempts(_ outcome: SessionOutcome, scenario: SimulatedScenario) -> [String] {
        var problems: [String] = []
        let targetSeconds = Double(outcome.configuration.interval.seconds)
        if outcome.status == .completed {
            if outcome.attempts.count != outcome.configuration.plannedCount {
                problems.append("completed with \(outcome.attempts.count) of \(outcome.configuration.plannedCount) attempts")
            }
            if outcome.attempts.count == scenario.expectedMarks.count {
                for (attempt, expected) in zip(outcome.attempts, scenario.expectedMarks)
                where attempt.startMark != expected.start || attempt.tapMark != expected.tap {
                    problems.append("attempt \(attempt.index) marked \(attempt.startMark.nanoseconds)–\(attempt.tapMark.nanoseconds) ns, the person pressed at \(expected.start.nanoseconds)–\(expected.tap.nanoseconds) ns")
                }
            } else {
                problems.append("\(outcome.attempts.count) attempts measured, the person made \(scenario.expectedMarks.count)")
            }
        }
        // Independent recomputation of SPEC §3.
        let errors = outcome.attempts.map { Double($0.tapMark.nanoseconds - $0.startMark.nanoseconds) / 1e9 - targetSeconds }
        for (attempt, error) in zip(outcome.attempts, errors) {
            let fraction = abs(error) / targetSeconds
            let zone = fraction < 0.05 ? "green" : (fraction < 0.15 ? "yellow" : "red")
            if attempt.zone.rawValue != zone { problems.append("attempt \(attempt.index) zone \(attempt.zone.rawValue), expected \(zone)") }
            if !close(attempt.signedErrorSeconds, error) { problems.append("attempt \(attempt.index) signed error \(attempt.signedErrorSeconds), expected \(error)") }
        }
        guard !errors.isEmpty else { return problems }
        let n = Double(errors.count)
        let meanAbs = errors.reduce(0) { $0 + abs($1) } / n
        let meanSigned = errors.reduce(0, +) / n
        var variance = 0.0
        for error in errors { variance += (error - meanSigned) * (error - meanSigned) }
        let sd = errors.count > 1 ? (variance / (n - 1)).squareRoot() : 0
        let meanAbsPercent = errors.reduce(0) { $0 + abs($1) / targetSeconds } / n
        var scaled = 100 * (1 - meanAbsPercent / 0.5)
        scaled = scaled < 0 ? 0 : (scaled > 100 ? 100 : scaled)
        let score = Int((scaled + 0.5).rounded(.down))
        let metrics = outcome.metrics
        if !close(metrics.meanAbsErrorSeconds, meanAbs) { problems.append("mean_abs_error_seconds \(metrics.meanAbsErrorSeconds), expected \(meanAbs)") }
        if !close(metrics.meanSignedErrorSeconds, meanSigned) { problems.append("mean_signed_error_seconds \(metrics.meanSignedErrorSeconds), expected \(meanSigned)") }
        if !close(metrics.stdDevErrorSeconds, sd) { problems.append("std_dev_error_seconds \(metrics.stdDevErrorSeconds), expected \(sd)") }
        if !close(metrics.meanAbsPercentError, meanAbsPercent) { problems.append("mean_abs_percent_error \(metrics.meanAbsPercentError), expected \(meanAbsPercent)") }
        if abs(metrics.timeAcuityScore - score) > (abs(scaled - scaled.rounded(.down) - 0.5) < 1e-9 ? 1 : 0) {
            problems.append("time_acuity_score \(metrics.timeAcuityScore), expected \(score)")
        }
        return problems
    }

    /// Reproduction: each attempt's presented interval is exactly the target, its first mark two
    /// seconds after the session start (attempt 1) or after the previous feedback ended, and the
    /// presses during presentations are counted as the person made them.
    private func checkPresentations(_ outcome: SessionOutcome, scenario: SimulatedScenario) -> [String] {
        var problems: [String] = []
        let target = outcome.configuration.interval.span.nanoseconds
        for attempt in outcome.attempts {
            guard let start = attempt.presentedStart, let end = attempt.presentedEnd else {
                problems.append("attempt \(attempt.index) has no presented interval")
                continue
            }
            if end.nanoseconds - start.nanoseconds != target {
                problems.append("attempt \(attempt.index) presented \(end.nanoseconds - start.nanoseconds) ns, not the interval's \(target) ns")
            }
            if attempt.index == 1, start.nanoseconds != outcome.startedAt.nanoseconds + 2_000_000_000 {
                problems.append("attempt 1's presentation began at \(start.nanoseconds) ns, not 2 s after the start")
            }
            if attempt.startMark < end { problems.append("attempt \(attempt.index) started before its presentation ended") }
        }
        if outcome.status == .completed, outcome.pressesIgnoredDuringPresentation != scenario.expectedPressesDuringPresentation {
            problems.append("\(outcome.pressesIgnoredDuringPresentation) presses ignored during presentations, the person made \(scenario.expectedPressesDuringPresentation)")
        }
        return problems
    }

    private func checkSound(_ outcome: SessionOutcome, scenario: SimulatedScenario, effects: [SessionEffect]) -> [String] {
        guard outcome.mode == .fear else {
            return effects.contains { if case .aversiveSound = $0 { return true } else { return false } }
                ? ["the aversive sound played outside Fear Mode"] : []
        }
        var problems: [String] = []
        // Sound matters until the last attempt is recognised (its sound would play then), which is
        // after the last tap's press mark by the length of the press.
        let lastRecognition = effects.compactMap { effect -> MonotonicInstant? in
            if case .attemptMeasured(let measurement, let at) = effect, measurement.index == outcome.attempts.last?.index { return at }
            return nil
        }.last ?? outcome.endedAt
        let lostBeforeEnd = scenario.soundLostAt.map { $0 <= lastRecognition } ?? false
        let expectedEffective = scenario.soundAudible && !lostBeforeEnd
        if outcome.status == .completed, outcome.fearSoundEffective != expectedEffective {
            problems.append("fear_sound_effective \(outcome.fearSoundEffective), expected \(expectedEffective)")
        }
        let played = Set(effects.compactMap { effect -> Int? in
            if case .aversiveSound(let attempt, _) = effect { return attempt } else { return nil }
        })
        for attempt in outcome.attempts {
            let audible = scenario.soundAudible && !(scenario.soundLostAt.map { $0 <= attempt.tapMark } ?? false)
            let due = audible && attempt.absPercentError >= outcome.configuration.fearThreshold
            // Sound lost between the press and its recognition is ambiguous by a few hundred ms; skip those.
            if let lost = scenario.soundLostAt, lost > attempt.tapMark, lost < attempt.tapMark + .seconds(1) { continue }
            if due != played.contains(attempt.index) {
                problems.append("attempt \(attempt.index): aversive sound \(played.contains(attempt.index) ? "played" : "silent"), expected \(due ? "played" : "silent")")
            }
        }
        return problems
    }

    private func checkBoundaries(_ outcome: SessionOutcome, scenario: SimulatedScenario) -> [String] {
        var problems: [String] = []
        if outcome.boundaries.count != scenario.expectedBoundaries {
            problems.append("\(outcome.boundaries.count) boundaries, expected \(scenario.expectedBoundaries)")
        }
        let interval = outcome.configuration.interval.span.nanoseconds
        for boundary in outcome.boundaries where boundary.due.nanoseconds != outcome.startedAt.nanoseconds + Int64(boundary.index) * interval {
            problems.append("boundary \(boundary.index) due at \(boundary.due.nanoseconds) ns, not start + k × interval")
        }
        return problems
    }

    private func checkMotor(_ effects: [SessionEffect]) -> [String] {
        var problems: [String] = []
        var patterns: [(start: MonotonicInstant, pattern: HapticPattern)] = []
        for effect in effects {
            if case .motor(let pattern, _, let at) = effect { patterns.append((at, pattern)) }
        }
        patterns.sort { $0.start < $1.start }
        var busyUntil = MonotonicInstant(nanoseconds: Int64.min)
        for entry in patterns {
            let edges = entry.pattern.edges(startingAt: entry.start)
            for index in stride(from: 0, to: edges.count, by: 2) where edges[index + 1].at - edges[index].at > motorSafeMaximum {
                problems.append("a vibration of \(entry.pattern) stays on longer than \(motorSafeMaximum.milliseconds) ms")
            }
            if entry.start < busyUntil { problems.append("two vibrations overlap at \(entry.start.nanoseconds) ns") }
            busyUntil = edges.last?.at ?? entry.start
        }
        return problems
    }

    private func checkRecord(_ outcome: SessionOutcome, decision: HealthRecordBuilder.Decision) -> [String] {
        var problems: [String] = []
        let interval = outcome.configuration.interval.span
        let eligible: Bool
        switch (outcome.status, outcome.mode.usesAttempts) {
        case (.completed, true): eligible = !outcome.attempts.isEmpty
        case (.completed, false):
            let duration = outcome.endedAt - outcome.startedAt
            eligible = !outcome.boundaries.isEmpty
                && (outcome.boundaries.count == outcome.configuration.plannedCount
                    || duration.nanoseconds >= min(2 * interval.nanoseconds, 300_000_000_000))
        default: eligible = false
        }
        guard let record = decision.record else {
            if eligible { problems.append("an eligible session produced no health record") }
            return problems
        }
        if !eligible { problems.append("an ineligible session produced a health record") }
        let start = outcome.mode.usesAttempts && outcome.mode != .reproduction ? outcome.attempts[0].startMark : outcome.startedAt
        let expectedStart = anchor.unixNanoseconds + (start.nanoseconds - anchor.monotonic.nanoseconds)
        let expectedEnd = anchor.unixNanoseconds + (outcome.endedAt.nanoseconds - anchor.monotonic.nanoseconds)
        if record.startDate.unixNanoseconds != expectedStart { problems.append("record start \(record.startDate.iso8601) is not the first mark") }
        if record.endDate.unixNanoseconds != expectedEnd { problems.append("record end \(record.endDate.iso8601) is not the end mark") }
        var keys = ["chronoception_version", "chronoception_mode", "target_interval_seconds"]
        switch outcome.mode {
        case .challenge, .fear, .reproduction:
            keys += ["attempt_count", "mean_abs_error_seconds", "mean_signed_error_seconds", "std_dev_error_seconds",
                     "mean_abs_percent_error", "time_acuity_score"]
            if outcome.mode == .fear { keys += ["fear_threshold_percent", "fear_sound_effective"] }
            if outcome.mode == .reproduction { keys += ["mean_ratio"] }
        case .passive:
            keys += ["repetition_count", "total_duration_seconds"]
        }
        keys += ["HKMetadataKeySyncIdentifier", "HKMetadataKeySyncVersion"]
        let actual = record.metadata.map(\.key)
        if actual.sorted() != keys.sorted() { problems.append("metadata keys \(actual), expected \(keys)") }
        return problems
    }

    private func close(_ a: Double, _ b: Double) -> Bool {
        abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
    }
}
