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
    static func values(_ session: IngestPlan.Session, deviceID: String, receivedUnixNanoseconds: Int64) -> [CollectorValue] {
        let wire = session.wire
        return [
            .text(wire.id), .text(deviceID), .integer(receivedUnixNanoseconds),
            .text(wire.mode), .text(wire.status), .integer(wire.targetIntervalMilliseconds),
            .integer(Int64(wire.plannedCount)), .real(wire.fearThreshold), .text(wire.intervalPattern),
            .boolean(wire.autoStartNextAttempt), .integer(wire.feedbackMilliseconds), .integer(wire.abortWindowMilliseconds),
            .integer(wire.debounceMilliseconds), .integer(wire.longPressMilliseconds),
            .integer(wire.startedMonotonicNanoseconds), .integer(wire.endedMonotonicNanoseconds),
            .integer(wire.anchorUnixNanoseconds), .integer(wire.anchorMonotonicNanoseconds), .integer(Int64(wire.utcOffsetSeconds)),
            .boolean(wire.wallClockSynchronised), .text(wire.board), .boolean(wire.soundAudibleAtStart),
            .boolean(wire.fearSoundEffective), .text(wire.healthDecision), wire.healthSkipReason.map(CollectorValue.text) ?? .null,
            .integer(session.startedUnixNanoseconds), .integer(session.endedUnixNanoseconds),
            .integer(Int64(session.outcome.attempts.count)),
            session.metrics.map { .integer(Int64($0.timeAcuityScore)) } ?? .null,
            session.metrics.map { .real($0.meanAbsErrorSeconds) } ?? .null,
            wire.timingLateNanoseconds.map(CollectorValue.integer) ?? .null,
            wire.note.map(CollectorValue.text) ?? .null,
        ] + studyValues(wire.study) + [wire.reason.map(CollectorValue.text) ?? .null]
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

    /// The wire session of a row read in `sessionColumns` order (the derived columns are ignored).
    static func session(_ row: [CollectorValue], attempts: [SyncedSession.Attempt], boundaries: [SyncedSession.Boundary]) throws -> SyncedSession {
        func text(_ index: Int) throws -> String {
            guard case .text(let value) = row[index] else { throw DecodeError(description: "column \(CollectorSchema.sessionColumns[index].name) is not text") }
            return value
        }
        func integer(_ index: Int) throws -> Int64 {
            guard case .integer(let value) = row[index] else { throw DecodeError(description: "column \(CollectorSchema.sessionColumns[index].name) is not an integer") }
            return value
        }
        func real(_ index: Int) throws -> Double {
            switch row[index] {
            case .real(let value): return value
            case .integer(let value): return Double(value)
            default: throw DecodeError(description: "column \(CollectorSchema.sessionColumns[index].name) is not a number")
            }
        }
        func boolean(_ index: Int) throws -> Bool {
            switch row[index] {
            case .boolean(let value): return value
            case .integer(let value): return value != 0
            default: throw DecodeError(description: "column \(CollectorSchema.sessionColumns[index].name) is not a boolean")
            }
        }
        var skipReason: String?
        if case .text(let value) = row[24] { skipReason = value }
        var timingLate: Int64?
        if row.count > 30, case .integer(let value) = row[30] { timingLate = value }
        var note: String?
        if row.count > 31, case .text(let value) = row[31] { note = value }
        var reason: String?
        if let index = CollectorSchema.sessionColumns.firstIndex(where: { $0.name == "reason" }), index < row.count,
           case .text(let value) = row[index] { reason = value }
        return SyncedSession(
            id: try text(0), mode: try text(3), status: try text(4), targetIntervalMilliseconds: try integer(5),
            plannedCount: Int(try integer(6)), fearThreshold: try real(7), intervalPattern: try text(8),
            autoStartNextAttempt: try boolean(9), feedbackMilliseconds: try integer(10), abortWindowMilliseconds: try integer(11),
            debounceMilliseconds: try integer(12), longPressMilliseconds: try integer(13),
            startedMonotonicNanoseconds: try integer(14), endedMonotonicNanoseconds: try integer(15),
            anchorUnixNanoseconds: try integer(16), anchorMonotonicNanoseconds: try integer(17), utcOffsetSeconds: Int(try integer(18)),
            wallClockSynchronised: try boolean(19), board: try text(20), soundAudibleAtStart: try boolean(21),
            fearSoundEffective: try boolean(22), attempts: attempts, boundaries: boundaries, healthDecision: try text(23),
            healthSkipReason: skipReason, timingLateNanoseconds: timingLate, note: note,
            study: study(row, from: CollectorSchema.sessionColumns.firstIndex { $0.name == "study_protocol" } ?? row.count),
            reason: reason)
    }

    /// `a, b, c` of every session column, optionally prefixed (`s.a, s.b`).
    static func columnList(prefix: String = "") -> String {
        CollectorSchema.sessionColumns.map { prefix + $0.name }.joined(separator: ", ")
    }
}
