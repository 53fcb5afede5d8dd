import ChronoCore
import ChronoSync

/// Progress over a device's or a participant's synced sessions, as the device's own `ProgressReport`
/// (ChronoCore/Progress): the same windows, trend rule, Time Acuity, zones and daily series, fed
/// the way `ChronoStore.progress` feeds it — per-session error sums by each session's own local day,
/// the last `ZoneStrip.length` attempts per interval — but from the collector's rows. Pure: the
/// caller reads the sessions and gives the time.
///
/// Two differences from the device, both because the collector only ever holds completed sessions:
/// aborted and interrupted counts are zero, and the intervals shown are the ones with the most
/// sessions (the device ranks its own presets by use, which a collector does not see), then the one
/// used most recently, then the shorter. An interval's H(I) is the pattern of its latest session.
public enum CollectorProgress {
    /// One session rebuilt for the report.
    struct Entry {
        var id: String
        var outcome: SessionOutcome
        var started: Int64
        var offset: Int
        var healthDecision: String
        var note: String?
    }

    public static func report(_ sessions: [CollectorSession], nowUnixNanoseconds now: Int64, utcOffsetSeconds: Int,
                              only: TrainingInterval? = nil) -> ProgressReport {
        // Stored sessions were validated at ingest; one that no longer validates (edited by hand) is left out.
        var entries: [Entry] = sessions.compactMap { stored in
            guard let outcome = try? stored.session.validatedOutcome() else { return nil }
            let anchor = stored.session.anchor
            return Entry(id: stored.session.id, outcome: outcome, started: anchor.unixNanoseconds(at: outcome.startedAt),
                         offset: anchor.utcOffsetSeconds, healthDecision: stored.session.healthDecision, note: stored.session.note)
        }
        if let only { entries = entries.filter { $0.outcome.configuration.interval.span == only.span } }
        // Newest first, as the device's queries order them.
        entries.sort { ($0.started, $0.id) > ($1.started, $1.id) }
        let today = WallTime(unixNanoseconds: now, utcOffsetSeconds: utcOffsetSeconds).localDayNumber
        let window = ProgressReport.windowSeconds * 1_000_000_000

        var byInterval: [Int64: [Entry]] = [:]
        for entry in entries { byInterval[entry.outcome.configuration.interval.span.nanoseconds, default: []].append(entry) }
        // Ties (two devices' sessions of equal count started in the same second) go to the shorter
        // interval: the dictionary's order differs from one request to the next, and without a total
        // order the page would show different intervals on each load.
        let ranked = byInterval.sorted { ($0.value.count, $0.value[0].started, -$0.key) > ($1.value.count, $1.value[0].started, -$1.key) }.map(\.value)

        var intervals: [ProgressReport.IntervalProgress] = []
        for group in ranked.prefix(only == nil ? ProgressLimits.intervalCount : 1) {
            let latest = group[0]
            var lastSeven = ErrorAccumulator(), sevenBefore = ErrorAccumulator()
            var daily: [Int64: ErrorAccumulator] = [:]
            var zones: [ErrorZone] = []
            var lastAttempts = ErrorAccumulator()
            for entry in group where entry.outcome.mode.usesAttempts && !entry.outcome.attempts.isEmpty {
                if entry.started >= now - 2 * window {
                    var errors = ErrorAccumulator()
                    errors.add(entry.outcome.metrics)
                    if entry.started >= now - window { lastSeven.add(errors) } else { sevenBefore.add(errors) }
                    daily[WallTime(unixNanoseconds: entry.started, utcOffsetSeconds: entry.offset).localDayNumber, default: ErrorAccumulator()].add(errors)
                }
                for attempt in entry.outcome.attempts.reversed() where zones.count < ZoneStrip.length {
                    zones.append(attempt.zone)
                    lastAttempts.add(ErrorAccumulator(attemptCount: 1, absErrorSecondsSum: attempt.absErrorSeconds, absPercentErrorSum: attempt.absPercentError))
                }
            }
            intervals.append(ProgressReport.IntervalProgress(
                interval: latest.outcome.configuration.interval, pattern: latest.outcome.configuration.intervalPattern,
                completedSessions: group.count, lastSevenDays: lastSeven, sevenDaysBefore: sevenBefore,
                lastZones: zones.reversed(), lastAttempts: lastAttempts, daily: daily))
        }

        var completedByMode: [SessionMode: Int] = [:]
        var overallDaily: [Int64: ErrorAccumulator] = [:]
        let overallStart = now - Int64(ProgressReport.overallDays + 1) * 86_400_000_000_000
        for entry in entries {
            completedByMode[entry.outcome.mode, default: 0] += 1
            guard entry.started >= overallStart, entry.outcome.mode.usesAttempts, !entry.outcome.attempts.isEmpty else { continue }
            var errors = ErrorAccumulator()
            errors.add(entry.outcome.metrics)
            overallDaily[WallTime(unixNanoseconds: entry.started, utcOffsetSeconds: entry.offset).localDayNumber, default: ErrorAccumulator()].add(errors)
        }
        let recent = entries.prefix(ProgressLimits.recentCount).map { entry -> ProgressReport.SessionLine in
            let outcome = entry.outcome
            let hasMetrics = outcome.mode.usesAttempts && !outcome.attempts.isEmpty
            let metrics = outcome.metrics
            return ProgressReport.SessionLine(
                sessionID: entry.id, mode: outcome.mode, interval: outcome.configuration.interval, status: outcome.status.rawValue,
                startedAt: WallTime(unixNanoseconds: entry.started, utcOffsetSeconds: entry.offset),
                plannedCount: outcome.configuration.plannedCount,
                doneCount: outcome.mode.usesAttempts ? outcome.attempts.count : outcome.repetitionsDone,
                timeAcuityScore: hasMetrics ? metrics.timeAcuityScore : nil, meanAbsErrorSeconds: hasMetrics ? metrics.meanAbsErrorSeconds : nil,
                meanSignedErrorSeconds: hasMetrics ? metrics.meanSignedErrorSeconds : nil,
                fearSoundEffective: outcome.mode == .fear ? outcome.fearSoundEffective : nil, healthLog: entry.healthDecision,
                timingLateness: outcome.timingLateness, note: entry.note)
        }
        return ProgressReport(today: today, intervals: intervals, completedByMode: completedByMode, abortedSessions: 0,
                              interruptedSessions: 0, recentSessions: Array(recent), daily: overallDaily, onlyInterval: only)
    }
}
