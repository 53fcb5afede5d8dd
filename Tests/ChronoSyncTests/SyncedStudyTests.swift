import ChronoCore
import ChronoSync
import Foundation
import Testing

/// The study's wire forms: the session's tag and the reply's assignment, their exact keys, and the
/// assignment checked with the core's validator before a device keeps it.
@Suite("Synced study")
struct SyncedStudyTests {
    static let document = """
        {"name": "s", "version": 2, "schedule": {"sessions_per_day": 1, "days": 2},
         "blocks": [{"name": "a", "mode": "challenge", "intervals": ["10s", "20s"]}]}
        """

    static func assignment(document: String = document, name: String = "s", version: Int = 2, participant: String = "P1",
                           index: Int = 0, seed: Int64 = 5, start: Int64 = 1_795_737_600_000_000_000) -> SyncedStudyAssignment {
        SyncedStudyAssignment(protocolName: name, protocolVersion: version, document: document, participant: participant,
                              participantIndex: index, startUnixNanoseconds: start, seed: seed)
    }

    @Test("the session's tag: snake_case keys, absent when nil, and back to the core's StudyTag")
    func tagOnTheWire() throws {
        let tag = StudyTag(protocolName: "s", protocolVersion: 2, participant: "P1", blockIndex: 0, blockName: "a", planPosition: 1,
                           condition: "a", feedbackShown: false)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(tag), as: UTF8.self)
            == #"{"block_index":0,"block_name":"a","condition":"a","feedback_shown":false,"participant":"P1","plan_position":1,"protocol_name":"s","protocol_version":2}"#)
        #expect(try JSONDecoder().decode(StudyTag.self, from: encoder.encode(tag)) == tag)
        let receipt = SyncReceipt(accepted: 0, duplicates: 0, acknowledgedThrough: 0, preferences: [])
        #expect(!String(decoding: try encoder.encode(receipt), as: UTF8.self).contains("study"))
        // A reply from a collector older than studies decodes with none.
        let old = #"{"protocol":1,"accepted":0,"duplicates":0,"acknowledged_through":0,"preferences":[]}"#
        #expect(try JSONDecoder().decode(SyncReceipt.self, from: Data(old.utf8)).study == nil)
    }

    /// A whole session with its tag as the device sends it (sorted keys, `SyncExchange.encoder`), byte
    /// for byte as it was when the wire had its own copy of the tag (captured from that build).
    @Test("a tagged session on the wire: byte-identical to the form before the tag's type was shared")
    func taggedSessionBytes() throws {
        let tag = StudyTag(protocolName: "sleep-2026", protocolVersion: 1, participant: "P017", blockIndex: 1, blockName: "blind",
                           planPosition: 2, condition: "no-feedback", feedbackShown: false)
        let target = try TrainingInterval(seconds: 10)
        let start = MonotonicInstant(nanoseconds: 1_000_000_000_000)
        let attempt = AttemptMeasurement(index: 1, target: target, startMark: start + .seconds(1), tapMark: start + .milliseconds(11_500))
        let configuration = try SessionConfiguration(mode: .challenge, interval: target, plannedCount: 1, feedback: .withheld)
        let outcome = SessionOutcome(status: .completed, configuration: configuration, startedAt: start, endedAt: start + .seconds(13),
                                     attempts: [attempt], boundaries: [], fearSoundEffective: false, reason: nil)
        let anchor = WallClockAnchor(unixNanoseconds: 1_795_000_000_000_000_000, monotonic: start, utcOffsetSeconds: 3600)
        let session = SyncedSession(sessionID: "00000000-0000-4000-8000-000000000007", outcome: outcome, anchor: anchor,
                                    board: "desktop", wallClockSynchronised: true, soundAudibleAtStart: false,
                                    boundariesFired: [], study: tag)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(session), as: UTF8.self)
        // Schema 2 adds only its `schema` member to the bytes schema 1 sent, and schema 1's still decode.
        #expect(text == Self.taggedSessionWire.replacingOccurrences(of: #""sound_audible_at_start""#, with: #""schema":2,"sound_audible_at_start""#), "\(text)")
        #expect(try JSONDecoder().decode(SyncedSession.self, from: Data(text.utf8)) == session)
        var schemaOne = session
        schemaOne.schema = nil
        #expect(try JSONDecoder().decode(SyncedSession.self, from: Data(Self.taggedSessionWire.utf8)) == schemaOne)
    }

    static let taggedSessionWire = #"{"abort_window_ms":5000,"anchor_mono_ns":1000000000000,"anchor_unix_ns":1795000000000000000,"attempts":[{"index":1,"start_mono_ns":1001000000000,"tap_mono_ns":1011500000000}],"auto_start_next_attempt":false,"board":"desktop","boundaries":[],"debounce_ms":30,"ended_mono_ns":1013000000000,"fear_sound_effective":false,"fear_threshold":0.1,"feedback_ms":1500,"health_decision":"record","id":"00000000-0000-4000-8000-000000000007","interval_pattern":"S","long_press_ms":1500,"mode":"challenge","planned_count":1,"sound_audible_at_start":false,"started_mono_ns":1000000000000,"status":"completed","study":{"block_index":1,"block_name":"blind","condition":"no-feedback","feedback_shown":false,"participant":"P017","plan_position":2,"protocol_name":"sleep-2026","protocol_version":1},"target_interval_ms":10000,"utc_offset_seconds":3600,"wall_clock_synchronised":true}"#

    @Test("an assignment is validated with the core's validator; each refusal says what is wrong")
    func assignmentValidation() throws {
        let valid = try Self.assignment().validated()
        #expect(valid.plan.sessions.map(\.interval.seconds) == [10, 20])
        #expect(valid.startUnixNanoseconds == 1_795_737_600_000_000_000 && valid.seed == 5)
        func refusal(_ assignment: SyncedStudyAssignment) -> String? {
            do { _ = try assignment.validated(); return nil } catch { return error.message }
        }
        #expect(refusal(Self.assignment(version: 3)) == "the collector announced protocol s@3 but sent s@2")
        #expect(refusal(Self.assignment(document: "{")) == "the study protocol s@2 from the collector is not valid: line 1: not valid JSON: expected a key in double quotes, found the end of the file")
        #expect(refusal(Self.assignment(participant: "")) == "the assignment's participant '' is not a label: use 1 to 64 printable characters without spaces at the ends, e.g. P017")
        #expect(refusal(Self.assignment(index: -1)) == "the assignment's participant index -1 is outside 0…999999")
        #expect(refusal(Self.assignment(seed: -1)) == "the assignment's seed -1 is outside 0…9007199254740991")
        #expect(refusal(Self.assignment(start: -1)) == "the assignment's start -1 ns is outside the years 1970–2099")
    }
}
