import ChronoCore
import ChronoStore
import ChronoSync
import Testing

/// One set of bounds (issue 33, item 2): `SessionValidation` owns the range of every session timing
/// and of the target interval, and the fallback file (`import`) and the sync batch (a collector) take
/// and refuse exactly the same values at its edges.
@Suite("Session bounds: one set for import and sync")
struct SessionBoundsTests {
    static let id = "3C9A51E2-7B4D-4F1E-9A2C-5D6E7F8091A2"
    static let start = MonotonicInstant(nanoseconds: 5_000_000_000)
    static let anchor = WallClockAnchor(unixNanoseconds: 1_795_000_000_000_000_000, monotonic: start, utcOffsetSeconds: 0)

    /// A one-attempt Challenge of `seconds`, with the four timing settings as given.
    static func record(seconds: Int = 10, feedback: Int64 = 1500, abortWindow: Int64 = 5000, debounce: Int64 = 30,
                       longPress: Int64 = 1500) throws -> SessionFinishRecord {
        let interval = try TrainingInterval(seconds: seconds)
        let configuration = try SessionConfiguration(
            mode: .challenge, interval: interval, plannedCount: 1,
            timing: SessionTiming(feedbackDuration: .milliseconds(feedback), abortConfirmWindow: .milliseconds(abortWindow)),
            gestures: GestureSettings(debounce: .milliseconds(debounce), longPress: .milliseconds(longPress)))
        let tap = start + .seconds(1) + interval.span
        let outcome = SessionOutcome(status: .completed, configuration: configuration, startedAt: start, endedAt: tap + .seconds(1),
                                     attempts: [AttemptMeasurement(index: 1, target: interval, startMark: start + .seconds(1), tapMark: tap)],
                                     boundaries: [], fearSoundEffective: false, reason: nil)
        return SessionFinishRecord(sessionID: id, outcome: outcome, anchor: anchor, board: "desktop")
    }

    static func wire(_ record: SessionFinishRecord) throws -> SyncedSession {
        SyncedSession(sessionID: record.sessionID, outcome: record.outcome, anchor: record.anchor, board: record.board,
                      wallClockSynchronised: true, soundAudibleAtStart: false, boundariesFired: [])
    }

    /// The fallback file's verdict on `record` with one field's text replaced: nil when it imports.
    static func fileProblem(_ record: SessionFinishRecord, replacing old: String = "", with new: String = "") -> String? {
        let text = UnsavedSessionFile.text(record).replacingOccurrences(of: old, with: new)
        do { _ = try UnsavedSessionFile.parse(text); return nil } catch { return error.description }
    }

    /// `import`'s words for a fallback file whose record the validator refuses with `problem`.
    static func refusal(_ problem: String) -> String {
        "holds a session Chronoception could not have recorded: session \(id) breaks rule session_shape: \(problem)"
    }

    static func syncProblem(_ session: SyncedSession) -> String? {
        do { _ = try session.validatedOutcome(); return nil } catch { return error.problem }
    }

    @Test("the bounds are the core's: timings 0…60000 ms, intervals 1 ms to 120m 59s")
    func theBounds() {
        #expect(SessionValidation.timingMilliseconds == 0...60_000)
        #expect(SessionValidation.intervalMilliseconds == 1...7_259_000)
        #expect(SessionValidation.timingProblem("feedback_ms", milliseconds: 60_000) == nil)
        #expect(SessionValidation.timingProblem("feedback_ms", milliseconds: 60_001) == "feedback_ms 60001 is outside 0…60000 ms")
        #expect(SessionValidation.timingProblem("feedback_ms", milliseconds: -1) == "feedback_ms -1 is outside 0…60000 ms")
        #expect(SessionValidation.intervalProblem("target_interval_ms", milliseconds: 7_259_001)
                == "target_interval_ms 7259001 is outside 1…7259000 ms")
    }

    @Test("a timing of a minute passes every format; a millisecond more is refused by every format and by the validator",
          arguments: ["feedback_ms", "abort_window_ms", "long_press_ms"])
    func timingEdge(name: String) throws {
        func record(_ value: Int64) throws -> SessionFinishRecord {
            switch name {
            case "feedback_ms": return try Self.record(feedback: value)
            case "abort_window_ms": return try Self.record(abortWindow: value)
            default: return try Self.record(longPress: value)
            }
        }
        let atEdge = try record(60_000)
        #expect(Self.fileProblem(atEdge) == nil)
        #expect(Self.syncProblem(try Self.wire(atEdge)) == nil)
        #expect(try SessionValidation.validated(atEdge) == atEdge)

        let beyond = try record(60_001)
        // The file is the record, so `import` refuses it with the collector's own words.
        #expect(Self.fileProblem(atEdge, replacing: "\"\(name)\":60000", with: "\"\(name)\":60001")
                == Self.refusal("\(name) 60001 is outside 0…60000 ms"))
        #expect(Self.syncProblem(try Self.wire(beyond)) == "\(name) 60001 is outside 0…60000 ms")
        do { _ = try SessionValidation.validated(beyond); Issue.record("accepted \(name) 60001") } catch {
            #expect(error.rule == .time && error.detail == "\(name) 60001 is outside 0…60000 ms")
        }
        // An hour, which the sync batch once took and `import` did not: refused by both now.
        #expect(Self.fileProblem(atEdge, replacing: "\"\(name)\":60000", with: "\"\(name)\":3600000") != nil)
        var hour = try Self.wire(atEdge)
        switch name {
        case "feedback_ms": hour.feedbackMilliseconds = 3_600_000
        case "abort_window_ms": hour.abortWindowMilliseconds = 3_600_000
        default: hour.longPressMilliseconds = 3_600_000
        }
        #expect(Self.syncProblem(hour) == "\(name) 3600000 is outside 0…60000 ms")
    }

    @Test("a negative debounce is refused by both formats")
    func negativeDebounce() throws {
        let record = try Self.record(debounce: 30)
        #expect(Self.fileProblem(record, replacing: "\"debounce_ms\":30", with: "\"debounce_ms\":-1")
                == Self.refusal("debounce_ms -1 is outside 0…60000 ms"))
        var wire = try Self.wire(record)
        wire.debounceMilliseconds = -1
        #expect(Self.syncProblem(wire) == "debounce_ms -1 is outside 0…60000 ms")
    }

    @Test("a 120m 59s session passes both formats; a longer interval is refused by both")
    func intervalEdge() throws {
        let longest = try Self.record(seconds: 7259)
        #expect(Self.fileProblem(longest) == nil)
        #expect(Self.syncProblem(try Self.wire(longest)) == nil)
        #expect(Self.fileProblem(longest, replacing: "\"target_interval_ms\":7259000", with: "\"target_interval_ms\":7260000")
                == Self.refusal("target_interval_ms 7260000 is outside 1…7259000 ms"))
        var wire = try Self.wire(longest)
        wire.targetIntervalMilliseconds = 7_259_001
        #expect(Self.syncProblem(wire) == "target_interval_ms 7259001 is outside 1…7259000 ms")
    }
}
