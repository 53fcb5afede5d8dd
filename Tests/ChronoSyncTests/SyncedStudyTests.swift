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
        #expect(String(decoding: try encoder.encode(SyncedSession.Study(tag)), as: UTF8.self)
            == #"{"block_index":0,"block_name":"a","condition":"a","feedback_shown":false,"participant":"P1","plan_position":1,"protocol_name":"s","protocol_version":2}"#)
        #expect(try JSONDecoder().decode(SyncedSession.Study.self, from: encoder.encode(SyncedSession.Study(tag))).tag == tag)
        let receipt = SyncReceipt(accepted: 0, duplicates: 0, acknowledgedThrough: 0, preferences: [])
        #expect(!String(decoding: try encoder.encode(receipt), as: UTF8.self).contains("study"))
        // A reply from a collector older than studies decodes with none.
        let old = #"{"protocol":1,"accepted":0,"duplicates":0,"acknowledged_through":0,"preferences":[]}"#
        #expect(try JSONDecoder().decode(SyncReceipt.self, from: Data(old.utf8)).study == nil)
    }

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
