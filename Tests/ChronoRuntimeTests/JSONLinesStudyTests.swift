import ChronoCore
@testable import ChronoRuntime
import Testing

/// `--json-lines` (docs/STUDIES.md, docs/REPRODUCTION.md): a Reproduction attempt carries its presented
/// marks after the existing members, and a session whose results are withheld as it ends carries none of
/// them (its attempts' results null, `results_withheld: true`, its health record without results).
@Suite("JSON lines: presented marks and withheld results")
struct JSONLinesStudyTests {
    static func finish(withheld: Bool) throws -> SessionFinishRecord {
        let target = try TrainingInterval(seconds: 10)
        let start = MonotonicInstant(nanoseconds: 5_000_000_000)
        let attempt = AttemptMeasurement(index: 1, target: target, startMark: start + .seconds(14), tapMark: start + .milliseconds(24_500),
                                         presentedStart: start + .milliseconds(2_003), presentedEnd: start + .milliseconds(12_004))
        let configuration = try SessionConfiguration(mode: .reproduction, interval: target, plannedCount: 1, feedback: withheld ? .withheld : .shown)
        let outcome = SessionOutcome(status: .completed, configuration: configuration, startedAt: start, endedAt: start + .seconds(25),
                                     attempts: [attempt], boundaries: [], fearSoundEffective: false, reason: nil)
        let anchor = WallClockAnchor(unixNanoseconds: 1_795_000_000_000_000_000, monotonic: start, utcOffsetSeconds: 0)
        var record = SessionFinishRecord(sessionID: "00000000-0000-4000-8000-000000000001", outcome: outcome, anchor: anchor, board: "desktop")
        record.resultsWithheld = withheld
        return record
    }

    @Test("a Reproduction attempt's presented marks follow its existing members")
    func presentedMarks() throws {
        let line = JSONLinesRecorder.line(for: try Self.finish(withheld: false))
        #expect(line["attempts"]?.compactText == #"[{"index":1,"elapsed_seconds":10.5,"signed_error_seconds":0.5,"zone":"yellow","feedback":"Late by 1s · yellow","presented_start_mono_ns":7003000000,"presented_end_mono_ns":17004000000}]"#)
        #expect(line["results_withheld"] == nil)
        #expect(line.compactText.contains(#""mean_ratio":1.05"#))
    }

    @Test("a withheld session's line has no result, and its health record none either")
    func withheld() throws {
        let line = JSONLinesRecorder.line(for: try Self.finish(withheld: true))
        #expect(line["attempts"]?.compactText == #"[{"index":1,"elapsed_seconds":null,"signed_error_seconds":null,"zone":null,"feedback":null,"presented_start_mono_ns":7003000000,"presented_end_mono_ns":17004000000}]"#)
        #expect(line["results_withheld"] == .bool(true))
        #expect(line["health_record"]?["metadata"]?.compactText == #"{"chronoception_version":3,"chronoception_mode":"reproduction","target_interval_seconds":10,"attempt_count":1,"results_withheld":true,"HKMetadataKeySyncIdentifier":"00000000-0000-4000-8000-000000000001","HKMetadataKeySyncVersion":1}"#)
    }
}
