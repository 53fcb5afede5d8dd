import ChronoCore
@testable import ChronoStore
import Foundation
import Testing

/// The fallback file holds the whole finished session (format 2, issue 33): the feedback policy,
/// Reproduction's presented marks, the study tag and `results_withheld` come back from `import`, so an
/// imported study session whose results are withheld gets a health record without its results.
/// Format 1 files, already on cards in the field, are still read.
@Suite("Fallback file: format 2, and format 1 still read")
struct FallbackFileFormatTests {
    static let id = "7D3E9B21-4C6A-4F8E-9B1D-2A3C4E5F6071"
    static let second: Int64 = 1_000_000_000

    /// A format 1 file of a two-attempt Reproduction session of a feedback-off study block, as format 1
    /// wrote it: no presented marks, no feedback policy, no study tag, no `results_withheld`.
    static let formatOne = #"{"chronoception_unsaved_session":1,"session_id":"7D3E9B21-4C6A-4F8E-9B1D-2A3C4E5F6071","board":"raspberry-pi-zero-2w","anchor":{"unix_ns":1795100000000000000,"monotonic_ns":41000000000,"utc_offset_seconds":3600},"configuration":{"mode":"reproduction","interval_ms":10000,"planned_count":2,"fear_threshold":0.1,"pattern":"S L","feedback_ms":1500,"abort_window_ms":5000,"auto_start":false,"debounce_ms":30,"long_press_ms":1500},"status":"completed","started_ns":41000000000,"ended_ns":87650000000,"attempts":[[1,53800000000,63200000000],[2,76000000000,87250000000]],"boundaries":[],"boundaries_fired_ns":[],"fear_sound_effective":false,"reason":null,"sound_audible_at_start":null,"timing_late_ns":null}"#

    static let tag = StudyTag(protocolName: "sleep-2026", protocolVersion: 1, participant: "P001", blockIndex: 0, blockName: "pre",
                              planPosition: 0, condition: "feedback-off", feedbackShown: false)

    /// The same session as the daemon hands it to the store: presented marks, feedback withheld, its
    /// study tag, its results withheld.
    static func finish() throws -> SessionFinishRecord {
        let interval = try TrainingInterval(seconds: 10)
        let configuration = try SessionConfiguration(mode: .reproduction, interval: interval, plannedCount: 2,
                                                     intervalPattern: try #require(HapticPattern(notation: "S L")), feedback: .withheld)
        func at(_ milliseconds: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: milliseconds * 1_000_000) }
        let attempts = [
            AttemptMeasurement(index: 1, target: interval, startMark: at(53_800), tapMark: at(63_200), presentedStart: at(42_000), presentedEnd: at(52_000)),
            AttemptMeasurement(index: 2, target: interval, startMark: at(76_000), tapMark: at(87_250), presentedStart: at(64_200), presentedEnd: at(74_200)),
        ]
        let outcome = SessionOutcome(status: .completed, configuration: configuration, startedAt: at(41_000), endedAt: at(87_650),
                                     attempts: attempts, boundaries: [], fearSoundEffective: false, reason: nil)
        var finish = SessionFinishRecord(sessionID: id, outcome: outcome,
                                         anchor: WallClockAnchor(unixNanoseconds: 1_795_100_000_000_000_000, monotonic: at(41_000), utcOffsetSeconds: 3600),
                                         board: "raspberry-pi-zero-2w")
        finish.study = tag
        finish.resultsWithheld = true
        return finish
    }

    @Test("format 2 gives back the whole session: presented marks, feedback policy, study tag, results_withheld")
    func formatTwoRoundTrips() throws {
        let finish = try Self.finish()
        let text = UnsavedSessionFile.json(finish).compactText
        #expect(text.hasPrefix(#"{"chronoception_unsaved_session":2,"#))
        #expect(text.contains(#""attempts":[[1,53800000000,63200000000,42000000000,52000000000],[2,76000000000,87250000000,64200000000,74200000000]]"#))
        #expect(text.contains(#""long_press_ms":1500,"feedback":"withheld"}"#))
        #expect(text.hasSuffix(#""timing_late_ns":null,"wall_clock_synchronised":null,"study":{"protocol_name":"sleep-2026","protocol_version":1,"participant":"P001","block_index":0,"block_name":"pre","plan_position":0,"condition":"feedback-off","feedback_shown":false},"results_withheld":true}"#))
        #expect(try UnsavedSessionFile.parse(text) == finish)
        // A session outside a study: no tag, results shown, feedback shown; its attempts have three entries.
        var plain = finish
        plain.study = nil
        plain.resultsWithheld = false
        plain.outcome.configuration.feedback = .shown
        plain.wallClockSynchronised = true
        #expect(try UnsavedSessionFile.parse(UnsavedSessionFile.json(plain).compactText) == plain)
    }

    @Test("a format 1 file is still read: what it holds comes back, feedback shown, no tag, results not withheld")
    func formatOneIsRead() throws {
        let back = try UnsavedSessionFile.parse(Self.formatOne)
        var expected = try Self.finish()
        expected.outcome.attempts = expected.outcome.attempts.map {
            AttemptMeasurement(index: $0.index, target: $0.target, startMark: $0.startMark, tapMark: $0.tapMark)
        }
        expected.outcome.configuration.feedback = .shown
        expected.study = nil
        expected.resultsWithheld = false
        #expect(back == expected)
        // Five-entry attempts are format 2's; a format 1 file with them was not written by Chronoception.
        let forged = Self.formatOne.replacingOccurrences(of: "[1,53800000000,63200000000]", with: "[1,53800000000,63200000000,42000000000,52000000000]")
        #expect(throws: UnsavedSessionFileError.self) { try UnsavedSessionFile.parse(forged) }
    }

    @Test("a format 2 file without its new fields, or with a bad tag, is refused")
    func formatTwoFieldsAreChecked() throws {
        let text = UnsavedSessionFile.json(try Self.finish()).compactText
        for (old, new, problem) in [
            (#","feedback":"withheld""#, "", "configuration.feedback is not shown or withheld"),
            (#""feedback":"withheld""#, #""feedback":"hidden""#, "configuration.feedback is not shown or withheld"),
            (#","results_withheld":true"#, "", "results_withheld is not true or false"),
            (#""participant":"P001""#, #""participant":"""#, nil),
            (#""plan_position":0"#, #""plan_position":"0""#, nil),
        ] {
            let changed = text.replacingOccurrences(of: old, with: new)
            #expect(changed != text)
            do {
                _ = try UnsavedSessionFile.parse(changed)
                Issue.record("accepted \(new)")
            } catch {
                guard case .malformed(let what) = error else { Issue.record("\(error)"); continue }
                if let problem { #expect(what == problem) }
            }
        }
    }

    @Test("importing a format 2 file of a withheld study session: its health record has no results, its row keeps the tag and the marks")
    func importedWithheldSessionRevealsNothing() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        let finish = try UnsavedSessionFile.parse(UnsavedSessionFile.json(try Self.finish()).compactText)
        let result = try store.recordSessionFinished(finish, nowUnixNanoseconds: 1_795_100_100_000_000_000)
        #expect(result.stored)
        let lines = try healthLogLines(store)
        #expect(lines.count == 1)
        let metadata = try #require(try jsonObject(lines[0])["metadata"] as? [String: Any])
        #expect(metadata["results_withheld"] as? Bool == true && metadata["chronoception_version"] as? Int == 3)
        #expect(metadata["time_acuity_score"] == nil && metadata["mean_abs_error_seconds"] == nil)
        let stored = try store.session(id: Self.id)
        #expect(stored.study == Self.tag)
        #expect(stored.outcome.attempts.map(\.presentedStart) == finish.outcome.attempts.map(\.presentedStart))
    }
}
