import ChronoCore
import ChronoSync

/// A column value on its way into or out of either store.
public enum CollectorValue: Hashable, Sendable {
    case null
    case text(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
}

/// Turns a session into the session table's row (`CollectorSchema.sessionColumns`) and back, the same
/// way for both stores.
enum SessionRowCodec {
    /// The row of `session`, in `CollectorSchema.sessionColumns` order: each value given under its
    /// column's name, so no list of columns is written out twice; a name the schema lacks traps in tests.
    static func values(_ session: IngestPlan.Session, deviceID: String, receivedUnixNanoseconds: Int64) -> [CollectorValue] {
        let wire = session.wire
        func text(_ value: String?) -> CollectorValue { value.map(CollectorValue.text) ?? .null }
        var named: [String: CollectorValue] = [
            "id": .text(wire.id), "device_id": .text(deviceID), "received_ns": .integer(receivedUnixNanoseconds),
            "mode": .text(wire.mode), "status": .text(wire.status), "target_interval_ms": .integer(wire.targetIntervalMilliseconds),
            "planned_count": .integer(Int64(wire.plannedCount)), "fear_threshold": .real(wire.fearThreshold),
            "interval_pattern": .text(wire.intervalPattern), "auto_start_next_attempt": .boolean(wire.autoStartNextAttempt),
            "feedback_ms": .integer(wire.feedbackMilliseconds), "abort_window_ms": .integer(wire.abortWindowMilliseconds),
            "debounce_ms": .integer(wire.debounceMilliseconds), "long_press_ms": .integer(wire.longPressMilliseconds),
            "started_mono_ns": .integer(wire.startedMonotonicNanoseconds), "ended_mono_ns": .integer(wire.endedMonotonicNanoseconds),
            "anchor_unix_ns": .integer(wire.anchorUnixNanoseconds), "anchor_mono_ns": .integer(wire.anchorMonotonicNanoseconds),
            "utc_offset_seconds": .integer(Int64(wire.utcOffsetSeconds)), "wall_clock_synchronised": .boolean(wire.wallClockSynchronised),
            "board": .text(wire.board), "sound_audible_at_start": .boolean(wire.soundAudibleAtStart),
            "fear_sound_effective": .boolean(wire.fearSoundEffective), "health_decision": .text(wire.healthDecision),
            "health_skip_reason": text(wire.healthSkipReason),
            "started_unix_ns": .integer(session.startedUnixNanoseconds), "ended_unix_ns": .integer(session.endedUnixNanoseconds),
            "attempt_count": .integer(Int64(session.outcome.attempts.count)),
            "time_acuity_score": session.metrics.map { .integer(Int64($0.timeAcuityScore)) } ?? .null,
            "mean_abs_error_seconds": session.metrics.map { .real($0.meanAbsErrorSeconds) } ?? .null,
            "timing_late_ns": wire.timingLateNanoseconds.map(CollectorValue.integer) ?? .null,
            "note": text(wire.note), "reason": text(wire.reason),
        ]
        for (column, value) in zip(CollectorSchema.studySessionColumns, studyValues(wire.study)) { named[column.name] = value }
        assert(Set(named.keys) == Set(CollectorSchema.sessionColumns.map(\.name)), "SessionRowCodec.values names other columns than the schema")
        return CollectorSchema.sessionColumns.map { named[$0.name] ?? .null }
    }

    /// The study tag's columns (`CollectorSchema.studySessionColumns`), all NULL without one.
    static func studyValues(_ study: StudyTag?) -> [CollectorValue] {
        guard let study else { return Array(repeating: .null, count: CollectorSchema.studySessionColumns.count) }
        return [
            .text(study.protocolName), .integer(Int64(study.protocolVersion)), .text(study.participant),
            .integer(Int64(study.blockIndex)), .text(study.blockName), .integer(Int64(study.planPosition)),
            .text(study.condition), .boolean(study.feedbackShown),
        ]
    }

    /// The study tag of a row whose study columns start at `first`; nil when they are NULL.
    static func study(_ row: [CollectorValue], from first: Int) -> StudyTag? {
        guard row.count >= first + CollectorSchema.studySessionColumns.count,
              case .text(let name) = row[first], case .integer(let version) = row[first + 1], case .text(let participant) = row[first + 2],
              case .integer(let blockIndex) = row[first + 3], case .text(let block) = row[first + 4],
              case .integer(let position) = row[first + 5], case .text(let condition) = row[first + 6] else { return nil }
        let shown: Bool
        switch row[first + 7] {
        case .boolean(let flag): shown = flag
        case .integer(let number): shown = number != 0
        default: return nil
        }
        return StudyTag(protocolName: name, protocolVersion: Int(version), participant: participant,
                        blockIndex: Int(blockIndex), blockName: block, planPosition: Int(position),
                        condition: condition, feedbackShown: shown)
    }

    struct DecodeError: Error, CustomStringConvertible {
        var description: String
    }

    /// Each session column's place in a row read in `sessionColumns` order, by name.
    static let columnIndex: [String: Int] = Dictionary(uniqueKeysWithValues: CollectorSchema.sessionColumns.enumerated().map { ($1.name, $0) })

    /// The wire session of a row read in `sessionColumns` order (the derived columns are ignored).
    /// Columns are found by name, so a column added later (NULL in older rows) reads as nil.
    static func session(_ row: [CollectorValue], attempts: [SyncedSession.Attempt], boundaries: [SyncedSession.Boundary]) throws -> SyncedSession {
        func value(_ name: String) throws -> CollectorValue {
            guard let index = columnIndex[name] else { throw DecodeError(description: "no session column \(name)") }
            return index < row.count ? row[index] : .null
        }
        func text(_ name: String) throws -> String {
            guard case .text(let value) = try value(name) else { throw DecodeError(description: "column \(name) is not text") }
            return value
        }
        func optionalText(_ name: String) throws -> String? {
            if case .text(let value) = try value(name) { return value }
            return nil
        }
        func integer(_ name: String) throws -> Int64 {
            guard case .integer(let value) = try value(name) else { throw DecodeError(description: "column \(name) is not an integer") }
            return value
        }
        func real(_ name: String) throws -> Double {
            switch try value(name) {
            case .real(let value): return value
            case .integer(let value): return Double(value)
            default: throw DecodeError(description: "column \(name) is not a number")
            }
        }
        func boolean(_ name: String) throws -> Bool {
            switch try value(name) {
            case .boolean(let value): return value
            case .integer(let value): return value != 0
            default: throw DecodeError(description: "column \(name) is not a boolean")
            }
        }
        var timingLate: Int64?
        if case .integer(let late) = try value("timing_late_ns") { timingLate = late }
        return SyncedSession(
            id: try text("id"), mode: try text("mode"), status: try text("status"), targetIntervalMilliseconds: try integer("target_interval_ms"),
            plannedCount: Int(try integer("planned_count")), fearThreshold: try real("fear_threshold"), intervalPattern: try text("interval_pattern"),
            autoStartNextAttempt: try boolean("auto_start_next_attempt"), feedbackMilliseconds: try integer("feedback_ms"),
            abortWindowMilliseconds: try integer("abort_window_ms"), debounceMilliseconds: try integer("debounce_ms"),
            longPressMilliseconds: try integer("long_press_ms"),
            startedMonotonicNanoseconds: try integer("started_mono_ns"), endedMonotonicNanoseconds: try integer("ended_mono_ns"),
            anchorUnixNanoseconds: try integer("anchor_unix_ns"), anchorMonotonicNanoseconds: try integer("anchor_mono_ns"),
            utcOffsetSeconds: Int(try integer("utc_offset_seconds")),
            wallClockSynchronised: try boolean("wall_clock_synchronised"), board: try text("board"),
            soundAudibleAtStart: try boolean("sound_audible_at_start"), fearSoundEffective: try boolean("fear_sound_effective"),
            attempts: attempts, boundaries: boundaries, healthDecision: try text("health_decision"),
            healthSkipReason: try optionalText("health_skip_reason"), timingLateNanoseconds: timingLate, note: try optionalText("note"),
            study: study(row, from: columnIndex["study_protocol"] ?? row.count),
            reason: try optionalText("reason"))
    }

    /// `a, b, c` of every session column, optionally prefixed (`s.a, s.b`).
    static func columnList(prefix: String = "") -> String {
        CollectorSchema.sessionColumns.map { prefix + $0.name }.joined(separator: ", ")
    }
}
