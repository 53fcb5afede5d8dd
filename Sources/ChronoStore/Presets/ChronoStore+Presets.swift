import ChronoCore
import GRDB

extension ChronoStore {
    /// Uses older than this many half-lives (560 days) weigh less than 2⁻⁴⁰ each and are left out of
    /// the frecency sum; they still count towards a preset's use count and last use. This keeps
    /// ranking cheap with years of history (100,000 sessions) without changing any visible order.
    public static let frecencyHorizonSeconds = Int64(Frecency.halfLifeSeconds) * 40

    /// Every used interval plus the built-in 5m 0s, in frecency order (SPEC §1, formula in `Frecency`).
    public func rankedPresets(nowUnixSeconds now: Int64) throws(StoreError) -> [RankedPreset] {
        try read { db in try rankedPresets(db, now: now) }
    }

    func rankedPresets(_ db: Database, now: Int64) throws -> [RankedPreset] {
        var uses: [PresetUse] = []
        // Thousands of uses within the horizon: the statement is kept prepared, and the interval value
        // is made once per run of equal intervals rather than once per use.
        let recent = try Row.fetchCursor(db.cachedStatement(sql: "SELECT target_interval_ms, used_unix_seconds FROM preset_use WHERE used_unix_seconds >= ?"),
                                         arguments: [now - Self.frecencyHorizonSeconds])
        var previous: (milliseconds: Int64, interval: TrainingInterval)?
        while let row = try recent.next() {
            let milliseconds: Int64 = row[0]
            let interval = previous?.milliseconds == milliseconds ? previous!.interval : try Self.interval(milliseconds: milliseconds, at: "table preset_use")
            previous = (milliseconds, interval)
            uses.append(PresetUse(interval: interval, usedAtUnixSeconds: row[1]))
        }
        var ranked = Frecency.rank(uses: uses, nowUnixSeconds: now)
        // Kept by triggers (`ProgressTallySchema`): counting every use ever made here took most of a
        // progress read with years of history.
        let totals = try Row.fetchAll(db.cachedStatement(sql: "SELECT target_interval_ms, uses, last_used_unix_seconds FROM preset_use_tally ORDER BY target_interval_ms"))
        var byInterval: [TrainingInterval: Int] = [:]
        for (position, preset) in ranked.enumerated() { byInterval[preset.interval] = position }
        var appended = false
        for row in totals {
            let interval = try Self.interval(milliseconds: row[0], at: "table preset_use_tally")
            if let position = byInterval[interval] {
                ranked[position].useCount = row[1]
                ranked[position].lastUsedUnixSeconds = row[2]
            } else {
                ranked.append(RankedPreset(interval: interval, score: 0, useCount: row[1], lastUsedUnixSeconds: row[2]))
                appended = true
            }
        }
        if appended {
            // The same order as Frecency's: score, then most recent use, then the shorter interval.
            ranked.sort { a, b in
                if a.score != b.score { return a.score > b.score }
                if (a.lastUsedUnixSeconds ?? .min) != (b.lastUsedUnixSeconds ?? .min) { return (a.lastUsedUnixSeconds ?? .min) > (b.lastUsedUnixSeconds ?? .min) }
                return a.interval < b.interval
            }
        }
        return ranked.filter { $0.interval.isProductInterval || $0.useCount > 0 }
    }

    /// The H(I) assignments, with every ranked preset assigned: new intervals get the simplest free
    /// pattern in frecency order and the assignments are saved, so a pattern never changes under the
    /// user once given (`IntervalPatternBook`).
    public func patternBook(ranked: [RankedPreset], nowUnixSeconds now: Int64) throws(StoreError) -> IntervalPatternBook {
        // A read-only store still lists presets; new assignments are then shown but saved next time.
        try writeWhenPossible { db, canSave in
            var assignments: [TrainingInterval: HapticPattern] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT target_interval_ms, pattern FROM haptic_assignment") {
                if let pattern = HapticPattern(notation: row[1]) { assignments[try Self.interval(milliseconds: row[0], at: "table haptic_assignment")] = pattern }
            }
            let before = assignments
            var book = IntervalPatternBook(assignments: assignments)
            book.assign(ranked: ranked.map(\.interval))
            guard book.assignments != before, canSave else { return book }
            for (interval, pattern) in before where book.assignments[interval] != pattern {
                try db.execute(sql: "DELETE FROM haptic_assignment WHERE target_interval_ms = ?", arguments: [interval.span.milliseconds])
            }
            for (interval, pattern) in book.assignments where before[interval] != pattern {
                try db.execute(sql: "INSERT INTO haptic_assignment (target_interval_ms, pattern, assigned_unix_seconds) VALUES (?, ?, ?)",
                               arguments: [interval.span.milliseconds, pattern.description, now])
            }
            return book
        }
    }

    /// The saved H(I) assignments only, without assigning anything (a read: usable while another
    /// process holds the write lock).
    public func savedPatternBook() throws(StoreError) -> IntervalPatternBook {
        try read { db in
            var assignments: [TrainingInterval: HapticPattern] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT target_interval_ms, pattern FROM haptic_assignment") {
                if let pattern = HapticPattern(notation: row[1]) { assignments[try Self.interval(milliseconds: row[0], at: "table haptic_assignment")] = pattern }
            }
            return IntervalPatternBook(assignments: assignments)
        }
    }

    /// H(I) for one interval (assigning and saving it if it has none yet), for a session about to start.
    public func pattern(for interval: TrainingInterval, nowUnixSeconds now: Int64) throws(StoreError) -> HapticPattern {
        var ranked = try rankedPresets(nowUnixSeconds: now)
        if !ranked.contains(where: { $0.interval == interval }) {
            ranked.append(RankedPreset(interval: interval, score: 0, useCount: 0, lastUsedUnixSeconds: nil))
        }
        return try patternBook(ranked: ranked, nowUnixSeconds: now).pattern(for: interval) ?? IntervalPatternBook.candidates[0]
    }

    /// The configuration of the most recent session outside any study, for "Start Last Session"; nil
    /// before the first.
    public func lastConfiguration() throws(StoreError) -> SessionConfiguration? {
        try read { db in
            // A study's planned session is not the person's own choice: the idle tap never repeats it.
            guard let row = try Row.fetchOne(db, sql: """
                SELECT * FROM session s WHERE NOT EXISTS (SELECT 1 FROM session_study t WHERE t.session_id = s.id)
                ORDER BY started_unix_ns DESC, id DESC LIMIT 1
                """) else { return nil }
            return try Self.configuration(row)
        }
    }
}
