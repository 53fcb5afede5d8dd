/// The one computation of progress (SPEC §5) for the device's `progress`, its API's `/progress` and
/// page, and the collector's progress API and page: the same input gives the same report everywhere.
///
/// Which sessions each figure uses (a reader that cannot give every session gives at least these):
/// - **Intervals shown**: the presets in frecency order that have a completed session (the tallies
///   say), at most `shownIntervalCount`; or only `only`.
/// - Per interval: **typical errors, trend and the day-by-day series** from its completed sessions
///   with attempts started in the last 14 days; **zones and Time Acuity** from the attempts of its
///   newest completed sessions with attempts, up to `ZoneStrip.length` attempts (those sessions need
///   `attempts`); **H(I)** is the pattern of its newest completed session.
/// - **Overall day-by-day series**: completed sessions with attempts of the last `overallDays` + 1 days.
/// - **Recent sessions**: the newest `recentSessionCount` sessions of any status.
/// - **Counts** (mode mix, aborted, interrupted, completed per interval) from the tallies.
/// A session whose results are withheld now counts as completed, enters no figure, and is counted in
/// `resultsWithheldSessions` (so every withheld completed session must be given).
extension ProgressReport {
    /// The intervals a report shows, in order: what the device's store reads sessions for.
    public static func shownIntervals(presets: [RankedPreset], tallies: [ProgressInput.Tally], only: TrainingInterval?) -> [TrainingInterval] {
        var completed: [TrainingInterval: Int] = [:]
        for tally in tallies where tally.status == SessionStatus.completed.rawValue { completed[tally.interval, default: 0] += tally.sessions }
        let candidates = only.map { [$0] } ?? presets.map(\.interval)
        return Array(candidates.filter { completed[$0, default: 0] > 0 }.prefix(only == nil ? shownIntervalCount : 1))
    }

    public static func of(_ input: ProgressInput, nowUnixNanoseconds now: Int64, utcOffsetSeconds: Int,
                          only: TrainingInterval? = nil) -> ProgressReport {
        let today = WallTime(unixNanoseconds: now, utcOffsetSeconds: utcOffsetSeconds).localDayNumber
        let window = windowSeconds * 1_000_000_000
        let sessions = input.sessions.filter { only == nil || $0.interval == only }.sorted(by: ProgressSession.newerFirst)
        var completed: [TrainingInterval: Int] = [:]
        for tally in input.tallies where tally.status == SessionStatus.completed.rawValue { completed[tally.interval, default: 0] += tally.sessions }

        var intervals: [IntervalProgress] = []
        for interval in shownIntervals(presets: input.presets, tallies: input.tallies, only: only) {
            let group = sessions.filter { $0.interval == interval && $0.isCompleted }
            var lastSeven = ErrorAccumulator(), sevenBefore = ErrorAccumulator()
            var daily: [Int64: ErrorAccumulator] = [:]
            for session in group where session.countsInFigures && session.startedUnixNanoseconds >= now - 2 * window {
                if session.startedUnixNanoseconds >= now - window { lastSeven.add(session.errors) } else { sevenBefore.add(session.errors) }
                daily[Self.day(session), default: ErrorAccumulator()].add(session.errors)
            }
            // The newest attempts first, then summed oldest first (the strip's order).
            var newest: [ProgressSession.AttemptErrors] = []
            for session in group where session.countsInFigures && newest.count < ZoneStrip.length {
                for attempt in (session.attempts ?? []).reversed() where newest.count < ZoneStrip.length { newest.append(attempt) }
            }
            var lastAttempts = ErrorAccumulator()
            for attempt in newest.reversed() {
                lastAttempts.add(ErrorAccumulator(attemptCount: 1, absErrorSecondsSum: attempt.absErrorSeconds, absPercentErrorSum: attempt.absPercentError))
            }
            var progress = IntervalProgress(
                interval: interval, pattern: group.first?.pattern, completedSessions: completed[interval, default: 0],
                lastSevenDays: lastSeven, sevenDaysBefore: sevenBefore, lastZones: newest.reversed().map(\.zone),
                lastAttempts: lastAttempts, daily: daily)
            progress.resultsWithheldSessions = group.filter(\.resultsWithheld).count
            intervals.append(progress)
        }

        var completedByMode: [SessionMode: Int] = [:]
        var aborted = 0, interrupted = 0
        for tally in input.tallies where only == nil || tally.interval == only {
            switch tally.status {
            case SessionStatus.completed.rawValue: completedByMode[tally.mode, default: 0] += tally.sessions
            case SessionStatus.aborted.rawValue: aborted += tally.sessions
            case SessionStatus.interrupted.rawValue: interrupted += tally.sessions
            default: break
            }
        }

        var overallDaily: [Int64: ErrorAccumulator] = [:]
        let overallStart = now - Int64(overallDays + 1) * 86_400_000_000_000
        for session in sessions where session.countsInFigures && session.startedUnixNanoseconds >= overallStart {
            overallDaily[Self.day(session), default: ErrorAccumulator()].add(session.errors)
        }
        var report = ProgressReport(
            today: today, intervals: intervals, completedByMode: completedByMode, abortedSessions: aborted,
            interruptedSessions: interrupted, recentSessions: sessions.prefix(recentSessionCount).map(\.line),
            daily: overallDaily, onlyInterval: only)
        report.resultsWithheldSessions = sessions.filter { $0.isCompleted && $0.resultsWithheld }.count
        return report
    }

    static func day(_ session: ProgressSession) -> Int64 {
        WallTime(unixNanoseconds: session.startedUnixNanoseconds, utcOffsetSeconds: session.utcOffsetSeconds).localDayNumber
    }
}
