import ChronoCore
@testable import ChronoStore
import ChronoSync
import Foundation
import Testing

/// The fallback file is the session record (`SyncedSession`, the sync wire form) in an envelope
/// (format 3, issue 33): a file gives back the whole finished session through the record's own
/// validator, so an imported study session whose results are withheld gets a health record without its
/// results. Format 1 and format 2 files, written by older versions and possibly still on cards in the
/// field, are still read; each has a real sample here, as those versions wrote it.
@Suite("Fallback file: format 3 is the session record; formats 1 and 2 still read")
struct FallbackFileFormatTests {
    static let id = "7D3E9B21-4C6A-4F8E-9B1D-2A3C4E5F6071"
    static let second: Int64 = 1_000_000_000

    /// A format 1 file of a two-attempt Reproduction session of a feedback-off study block, as format 1
    /// wrote it: no presented marks, no feedback policy, no study tag, no `results_withheld`.
    static let formatOne = #"{"chronoception_unsaved_session":1,"session_id":"7D3E9B21-4C6A-4F8E-9B1D-2A3C4E5F6071","board":"raspberry-pi-zero-2w","anchor":{"unix_ns":1795100000000000000,"monotonic_ns":41000000000,"utc_offset_seconds":3600},"configuration":{"mode":"reproduction","interval_ms":10000,"planned_count":2,"fear_threshold":0.1,"pattern":"S L","feedback_ms":1500,"abort_window_ms":5000,"auto_start":false,"debounce_ms":30,"long_press_ms":1500},"status":"completed","started_ns":41000000000,"ended_ns":87650000000,"attempts":[[1,53800000000,63200000000],[2,76000000000,87250000000]],"boundaries":[],"boundaries_fired_ns":[],"fear_sound_effective":false,"reason":null,"sound_audible_at_start":null,"timing_late_ns":null}"#

    /// The same session in format 2, as format 2 wrote it: its own shape, with the presented marks, the
    /// feedback policy, the study tag and `results_withheld`, and the start's facts unknown (null).
    static let formatTwo = #"{"chronoception_unsaved_session":2,"session_id":"7D3E9B21-4C6A-4F8E-9B1D-2A3C4E5F6071","board":"raspberry-pi-zero-2w","anchor":{"unix_ns":1795100000000000000,"monotonic_ns":41000000000,"utc_offset_seconds":3600},"configuration":{"mode":"reproduction","interval_ms":10000,"planned_count":2,"fear_threshold":0.1,"pattern":"S L","feedback_ms":1500,"abort_window_ms":5000,"auto_start":false,"debounce_ms":30,"long_press_ms":1500,"feedback":"withheld"},"status":"completed","started_ns":41000000000,"ended_ns":87650000000,"attempts":[[1,53800000000,63200000000,42000000000,52000000000],[2,76000000000,87250000000,64200000000,74200000000]],"boundaries":[],"boundaries_fired_ns":[],"fear_sound_effective":false,"reason":null,"sound_audible_at_start":null,"timing_late_ns":null,"wall_clock_synchronised":null,"study":{"protocol_name":"sleep-2026","protocol_version":1,"participant":"P001","block_index":0,"block_name":"pre","plan_position":0,"condition":"feedback-off","feedback_shown":false},"results_withheld":true}"#

    /// The same session in format 3, as this version writes it (the daemon gave the start's facts).
    static let formatThree = #"{"chronoception_unsaved_session":3,"results_withheld":true,"session":{"abort_window_ms":5000,"anchor_mono_ns":41000000000,"anchor_unix_ns":1795100000000000000,"attempts":[{"index":1,"presented_end_mono_ns":52000000000,"presented_start_mono_ns":42000000000,"start_mono_ns":53800000000,"tap_mono_ns":63200000000},{"index":2,"presented_end_mono_ns":74200000000,"presented_start_mono_ns":64200000000,"start_mono_ns":76000000000,"tap_mono_ns":87250000000}],"auto_start_next_attempt":false,"board":"raspberry-pi-zero-2w","boundaries":[],"debounce_ms":30,"ended_mono_ns":87650000000,"fear_sound_effective":false,"fear_threshold":0.1,"feedback_ms":1500,"health_decision":"record","id":"7D3E9B21-4C6A-4F8E-9B1D-2A3C4E5F6071","interval_pattern":"S L","long_press_ms":1500,"mode":"reproduction","planned_count":2,"schema":2,"sound_audible_at_start":true,"started_mono_ns":41000000000,"status":"completed","study":{"block_index":0,"block_name":"pre","condition":"feedback-off","feedback_shown":false,"participant":"P001","plan_position":0,"protocol_name":"sleep-2026","protocol_version":1},"target_interval_ms":10000,"utc_offset_seconds":3600,"wall_clock_synchronised":true}}"#

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

    @Test("format 3 is the session record in its envelope, and gives back the whole session")
    func formatThreeRoundTrips() throws {
        var finish = try Self.finish()
        finish.soundAudibleAtStart = true
        finish.wallClockSynchronised = true
        let text = UnsavedSessionFile.text(finish)
        #expect(text == Self.formatThree)
        #expect(try UnsavedSessionFile.parse(text) == finish)
        // The envelope's session is the sync wire form of the same session, member for member.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let session = try JSONSerialization.data(withJSONObject: try #require(object["session"]))
        let wire = SyncedSession(sessionID: finish.sessionID, outcome: finish.outcome, anchor: finish.anchor, board: finish.board,
                                 wallClockSynchronised: true, soundAudibleAtStart: true, boundariesFired: [], study: finish.study)
        #expect(try JSONDecoder().decode(SyncedSession.self, from: session) == wire)
        // A session outside a study: no tag, results shown, feedback shown.
        var plain = finish
        plain.study = nil
        plain.resultsWithheld = false
        plain.outcome.configuration.feedback = .shown
        #expect(try UnsavedSessionFile.parse(UnsavedSessionFile.text(plain)) == plain)
        // Facts the finish leaves unknown are written as the store assumes them.
        let unknown = try UnsavedSessionFile.parse(UnsavedSessionFile.text(try Self.finish()))
        #expect(unknown.soundAudibleAtStart == true && unknown.wallClockSynchronised == false)
    }

    @Test("a format 1 or 2 file's reason, kept before the reason's character rule, is read with its control characters escaped")
    func legacyReasonIsEscaped() throws {
        for file in [Self.formatOne, Self.formatTwo] {
            let text = file.replacingOccurrences(of: #""reason":null"#, with: #""reason":"Stopped:\nby SIGTERM""#)
            #expect(try UnsavedSessionFile.parse(text).outcome.reason == #"Stopped:\nby SIGTERM"#)
        }
    }

    @Test("a format 2 file is still read: the whole session comes back, the start's facts unknown")
    func formatTwoIsRead() throws {
        #expect(try UnsavedSessionFile.parse(Self.formatTwo) == (try Self.finish()))
        let forged = Self.formatTwo.replacingOccurrences(of: #","results_withheld":true"#, with: "")
        #expect(throws: UnsavedSessionFileError.self) { try UnsavedSessionFile.parse(forged) }
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

    @Test("every format reads an interval alike: 5 s and 150 ms are test-mode intervals, imported in test mode and refused in the same words without it")
    func testIntervalsAlikeInEveryFormat() throws {
        let files = [("configuration.interval_ms", Self.formatOne, #""interval_ms":10000"#), ("configuration.interval_ms", Self.formatTwo, #""interval_ms":10000"#),
                     ("session.target_interval_ms", Self.formatThree, #""target_interval_ms":10000"#)]
        for (name, file, member) in files {
            for milliseconds: Int64 in [5_000, 150] {
                let text = file.replacingOccurrences(of: member, with: member.replacingOccurrences(of: "10000", with: String(milliseconds)))
                #expect(try UnsavedSessionFile.parse(text, allowTestIntervals: true).outcome.configuration.interval == .testOnly(milliseconds: milliseconds))
                let refusal = #expect(throws: UnsavedSessionFileError.self) { try UnsavedSessionFile.parse(text) }
                #expect(refusal?.description == UnsavedSessionFileError.malformed(UnsavedSessionFile.testIntervalProblem(name, milliseconds: milliseconds)).description)
            }
        }
        #expect(UnsavedSessionFile.testIntervalProblem("session.target_interval_ms", milliseconds: 5_000)
                == "session.target_interval_ms 5000 is a test-mode interval (a product interval is whole seconds from 10 s to 7259 s); import it with test mode on, or not at all")
    }

    @Test("a format 3 file with a member missing, damaged or claiming too much is refused, naming it")
    func formatThreeFieldsAreChecked() throws {
        for (old, new, problem) in [
            (#""results_withheld":true,"#, "", "is not an unsaved-session file Chronoception wrote (results_withheld is missing)"),
            (#""feedback_shown":false"#, #""feedback_shown":true"#,
             "is not an unsaved-session file Chronoception wrote (results_withheld is true for a session outside a study block that withholds feedback)"),
            (#""participant":"P001""#, #""participant":"""#, nil),
            (#""plan_position":0"#, #""plan_position":"0""#, "is not an unsaved-session file Chronoception wrote (session.study.plan_position is not of the right type)"),
            (#""schema":2"#, #""schema":3"#, nil),
            (#""chronoception_unsaved_session":3"#, #""chronoception_unsaved_session":4"#,
             "is not an unsaved-session file Chronoception wrote (format 4 is newer than this program's 3; update chronoception)"),
            (#""chronoception_unsaved_session":3"#, #""chronoception_unsaved_session":0"#,
             "is not an unsaved-session file Chronoception wrote (format 0 is not a format of this file (1 to 3))"),
            (#""tap_mono_ns":63200000000"#, #""tap_mono_ns":9223372036854775808"#, nil),
            (#""tap_mono_ns":63200000000"#, #""tap_mono_ns":53000000000"#, "breaks rule session_order"),
        ] {
            let changed = Self.formatThree.replacingOccurrences(of: old, with: new)
            #expect(changed != Self.formatThree, "\(old)")
            do {
                _ = try UnsavedSessionFile.parse(changed)
                Issue.record("accepted \(new)")
            } catch {
                if let problem { #expect(error.description.contains(problem), "\(error)") }
            }
        }
    }

    @Test("importing a format 3 file of a withheld study session: its health record has no results, its row keeps the tag and the marks")
    func importedWithheldSessionRevealsNothing() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        var whole = try Self.finish()
        whole.wallClockSynchronised = true
        let finish = try UnsavedSessionFile.parse(UnsavedSessionFile.text(whole))
        let result = try store.recordSessionFinished(finish, nowUnixNanoseconds: 1_795_100_100_000_000_000)
        #expect(result.stored)
        let lines = try healthLogLines(store)
        try #require(lines.count == 1)
        let metadata = try #require(try jsonObject(lines[0])["metadata"] as? [String: Any])
        #expect(metadata["results_withheld"] as? Bool == true && metadata["chronoception_version"] as? Int == 3)
        #expect(metadata["time_acuity_score"] == nil && metadata["mean_abs_error_seconds"] == nil)
        let stored = try store.session(id: Self.id)
        #expect(stored.study == Self.tag)
        #expect(stored.outcome.attempts.map(\.presentedStart) == finish.outcome.attempts.map(\.presentedStart))
    }
}
