import ChronoCore
import ChronoRuntime
@testable import ChronoDevice
import ChronoStore
import ChronoSync
import ChronoTesting
import Foundation
import Testing

/// `--json-lines` (docs/RUNTIME.md, docs/STUDIES.md, docs/REPRODUCTION.md): a Reproduction attempt
/// carries its presented marks after the existing members, each line ends with the session record, and a
/// session whose results are withheld as it ends carries none of them (its attempts' results null,
/// `results_withheld: true`, its health record without results, its record null).
@Suite("JSON lines: presented marks, the session record and withheld results")
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
        #expect(line["record"] == .null)
        #expect(line["health_record"]?["metadata"]?.compactText == #"{"chronoception_version":3,"chronoception_mode":"reproduction","target_interval_seconds":10,"attempt_count":1,"results_withheld":true,"HKMetadataKeySyncIdentifier":"00000000-0000-4000-8000-000000000001","HKMetadataKeySyncVersion":1}"#)
    }

    @Test("a line ends with the session record, with the start's facts, which decodes back to the session")
    func record() throws {
        let finish = try Self.finish(withheld: false)
        let lines = RecordingLines()
        // As the product wires it: the fan-out settles the start's wall-clock fact for every recorder.
        let recorder = RecorderFanOut([JSONLinesRecorder(output: lines)], isWallClockSynchronised: { true })
        recorder.sessionStarted(SessionStartRecord(sessionID: finish.sessionID, configuration: finish.outcome.configuration,
                                                   anchor: finish.anchor, board: finish.board, soundAudible: false))
        recorder.sessionFinished(finish)
        let text = try #require(lines.all.first)
        let line = try #require(JSONValue(parsing: text))
        #expect(line.compactText.hasSuffix(#","record":{"abort_window_ms":5000,"anchor_mono_ns":5000000000,"anchor_unix_ns":1795000000000000000,"attempts":[{"index":1,"presented_end_mono_ns":17004000000,"presented_start_mono_ns":7003000000,"start_mono_ns":19000000000,"tap_mono_ns":29500000000}],"auto_start_next_attempt":false,"board":"desktop","boundaries":[],"debounce_ms":30,"ended_mono_ns":30000000000,"fear_sound_effective":false,"fear_threshold":0.1,"feedback_ms":1500,"health_decision":"record","id":"00000000-0000-4000-8000-000000000001","interval_pattern":"S","long_press_ms":1500,"mode":"reproduction","planned_count":1,"schema":2,"sound_audible_at_start":false,"started_mono_ns":5000000000,"status":"completed","target_interval_ms":10000,"utc_offset_seconds":0,"wall_clock_synchronised":true}}"#))
        let record = try JSONDecoder().decode(SyncedSession.self, from: Data(try #require(line["record"]).compactText.utf8))
        #expect(try record.validatedOutcome() == finish.outcome)
        #expect(record.soundAudibleAtStart == false && record.wallClockSynchronised == true)
    }
}
