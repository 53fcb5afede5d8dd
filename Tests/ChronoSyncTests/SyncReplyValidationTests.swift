import ChronoCore
import Foundation
import Testing
@testable import ChronoSync

/// The device's one validator for a collector's replies: each bound at its edge and one past it.
@Suite("Sync reply validation")
struct SyncReplyValidationTests {
    static let ids = ["0B7C2F4E-3A51-4C7E-9D0A-5F1E2D3C4B5A", "1B7C2F4E-3A51-4C7E-9D0A-5F1E2D3C4B5A"]

    static func batch(sessions count: Int = 2, through: Int64 = 7) throws -> SyncBatch {
        let outcome = try SyncedSessionTests.challenge()
        let sessions = try (0..<count).map { index in
            var session = try #require(SyncedSessionTests.wire(outcome))
            session.id = ids[index]
            return session
        }
        return SyncBatch(deviceID: "2b7c2f4e-3a51-4c7e-9d0a-5f1e2d3c4b5a", cursorAfter: 5, cursorThrough: through, sessions: sessions, preferences: [])
    }

    static func receipt(accepted: Int = 2, duplicates: Int = 0, through: Int64 = 7, preferences: [StampedPreference] = [],
                        refused: [SyncRefusedSession]? = nil) -> SyncReceipt {
        SyncReceipt(accepted: accepted, duplicates: duplicates, acknowledgedThrough: through, preferences: preferences, refused: refused)
    }

    func problem(_ receipt: SyncReceipt, _ batch: SyncBatch? = nil) throws -> String? {
        let batch = try batch ?? Self.batch()
        do { _ = try SyncReplyValidation.validated(receipt, for: batch); return nil } catch { return error.problem }
    }

    func stamp(_ clock: Int64, key: String = "default-attempts", value: String = "5") -> StampedPreference {
        StampedPreference(key: key, value: value, clock: clock, origin: .collector)
    }

    @Test("counts: each at most the batch's sessions, their sum too; Int64.max and -1 refused without a trap")
    func counts() throws {
        #expect(try problem(Self.receipt(accepted: 2, duplicates: 0)) == nil)
        #expect(try problem(Self.receipt(accepted: 0, duplicates: 2)) == nil)
        #expect(try problem(Self.receipt(accepted: 1, duplicates: 1)) == nil)
        #expect(try problem(Self.receipt(accepted: 0, duplicates: 0)) == nil)
        #expect(try problem(Self.receipt(accepted: 3, duplicates: 0)) == "it counts 3 sessions accepted, outside 0…2 (the batch held 2)")
        #expect(try problem(Self.receipt(accepted: 0, duplicates: 3)) == "it counts 3 sessions already there, outside 0…2 (the batch held 2)")
        #expect(try problem(Self.receipt(accepted: 2, duplicates: 1)) == "it counts 2 accepted, 1 already there and 0 refused, more than the batch's 2 sessions")
        #expect(try problem(Self.receipt(accepted: Int(Int64.max), duplicates: 0))?.hasPrefix("it counts 9223372036854775807 sessions accepted") == true)
        #expect(try problem(Self.receipt(accepted: Int(Int64.max), duplicates: Int(Int64.max))) != nil)
        #expect(try problem(Self.receipt(accepted: -1, duplicates: 0))?.hasPrefix("it counts -1 sessions accepted") == true)
        #expect(try problem(Self.receipt(accepted: 0, duplicates: 0), Self.batch(sessions: 0)) == nil)
        #expect(try problem(Self.receipt(accepted: 1, duplicates: 0), Self.batch(sessions: 0)) != nil)
    }

    @Test("the acknowledgement is the batch's own cursor_through, not one more or Int64.max")
    func acknowledgement() throws {
        #expect(try problem(Self.receipt(through: 8)) == "it acknowledges through 8, not the batch's 7")
        #expect(try problem(Self.receipt(through: .max)) != nil)
        #expect(try problem(Self.receipt(through: 6)) != nil)
    }

    @Test("clocks: 0 and 2^53-1 accepted; 2^53, 2^63-1 and -1 refused")
    func clocks() throws {
        #expect(try problem(Self.receipt(preferences: [stamp(0)])) == nil)
        #expect(try problem(Self.receipt(preferences: [stamp(PreferenceMerge.maximumClock)])) == nil)
        #expect(try problem(Self.receipt(preferences: [stamp(1 << 53)])) == "its preference default-attempts has clock 9007199254740992, outside 0…9007199254740991")
        #expect(try problem(Self.receipt(preferences: [stamp(.max)])) == "its preference default-attempts has clock 9223372036854775807, outside 0…9007199254740991")
        #expect(try problem(Self.receipt(preferences: [stamp(-1)])) != nil)
        #expect(try problem(Self.receipt(preferences: [stamp(.min)])) != nil)
    }

    @Test("preferences: at most 64, each key once and of a setting's form, values one line of at most 1,024 bytes")
    func preferences() throws {
        let many = (0..<64).map { stamp(1, key: "k\($0)") }
        #expect(try problem(Self.receipt(preferences: many)) == nil)
        #expect(try problem(Self.receipt(preferences: many + [stamp(1, key: "k64")])) == "it carries 65 preferences, more than 64")
        #expect(try problem(Self.receipt(preferences: [stamp(1), stamp(2)]))?.contains("is there twice") == true)
        #expect(try problem(Self.receipt(preferences: [stamp(1, key: "Default-Attempts")])) != nil)
        #expect(try problem(Self.receipt(preferences: [stamp(1, key: "")])) != nil)
        #expect(try problem(Self.receipt(preferences: [stamp(1, key: String(repeating: "a", count: 64))])) == nil)
        #expect(try problem(Self.receipt(preferences: [stamp(1, key: String(repeating: "a", count: 65))])) != nil)
        #expect(try problem(Self.receipt(preferences: [stamp(1, key: "default-attempts\r\nX")])) != nil)
        #expect(try problem(Self.receipt(preferences: [stamp(1, value: "")])) == nil)
        #expect(try problem(Self.receipt(preferences: [stamp(1, value: String(repeating: "9", count: 1024))])) == nil)
        #expect(try problem(Self.receipt(preferences: [stamp(1, value: String(repeating: "9", count: 1025))])) == "its preference default-attempts's value is 1025 bytes long, more than 1024")
        #expect(try problem(Self.receipt(preferences: [stamp(1, value: "5\r\n")]))?.contains("line break") == true)
        #expect(try problem(Self.receipt(preferences: [stamp(1, value: "5\u{202E}")])) != nil)
    }

    @Test("refused sessions: the batch's own ids (any case), once each, a rule's name and a one-line reason")
    func refusedSessions() throws {
        let good = SyncRefusedSession(sessionID: Self.ids[1].lowercased(), rule: "session_study_participant", reason: "another participant's")
        #expect(try problem(Self.receipt(accepted: 1, refused: [good])) == nil)
        #expect(try problem(Self.receipt(accepted: 2, refused: [good])) != nil)
        #expect(try problem(Self.receipt(accepted: 0, refused: [good, good]))?.contains("named twice") == true)
        var other = good
        other.sessionID = "9B7C2F4E-3A51-4C7E-9D0A-5F1E2D3C4B5A"
        #expect(try problem(Self.receipt(accepted: 1, refused: [other]))?.contains("not one of the batch's") == true)
        other.sessionID = "not\r\na uuid"
        #expect(try problem(Self.receipt(accepted: 1, refused: [other]))?.contains(#"\r\n"#) == true)
        var rule = good
        rule.rule = "Session Study"
        #expect(try problem(Self.receipt(accepted: 1, refused: [rule])) != nil)
        var reason = good
        reason.reason = ""
        #expect(try problem(Self.receipt(accepted: 1, refused: [reason])) == "its reason for refusing session 1B7C2F4E-3A51-4C7E-9D0A-5F1E2D3C4B5A is empty")
        reason.reason = "x\u{1B}[2J"
        #expect(try problem(Self.receipt(accepted: 1, refused: [reason])) != nil)
        reason.reason = String(repeating: "x", count: 1025)
        #expect(try problem(Self.receipt(accepted: 1, refused: [reason])) != nil)
    }

    @Test("the receipt's JSON: refused absent when none, snake_case when some, and absent from older collectors")
    func refusedOnTheWire() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(!String(decoding: try encoder.encode(Self.receipt()), as: UTF8.self).contains("refused"))
        let one = Self.receipt(accepted: 1, refused: [SyncRefusedSession(sessionID: Self.ids[1], rule: "r", reason: "why")])
        #expect(String(decoding: try encoder.encode(one), as: UTF8.self).contains(#""refused":[{"reason":"why","rule":"r","session_id":"1B7C2F4E-3A51-4C7E-9D0A-5F1E2D3C4B5A"}]"#))
        let old = #"{"protocol":1,"accepted":0,"duplicates":0,"acknowledged_through":0,"preferences":[]}"#
        #expect(try JSONDecoder().decode(SyncReceipt.self, from: Data(old.utf8)).refused == nil)
    }

    func grantProblem(key: String = "ccd_" + String(repeating: "A", count: 43), collectorID: String = "00000000-0000-4000-8000-00000000000a",
                      name: String = "P017") -> String? {
        do { _ = try SyncReplyValidation.validated(EnrolmentGrant(collectorID: collectorID, deviceName: name, key: key)); return nil } catch {
            return error.problem
        }
    }

    @Test("grants: a bearer key's alphabet and length, the collector's UUID, a device name that is a label")
    func grants() {
        #expect(grantProblem() == nil)
        #expect(grantProblem(key: "key-" + "0B7C2F4E-3A51-4C7E-9D0A-5F1E2D3C4B5A") == nil)
        #expect(grantProblem(key: "abc+/~._-xyz==") == nil)
        #expect(grantProblem(key: String(repeating: "k", count: 8)) == nil)
        #expect(grantProblem(key: String(repeating: "k", count: 7)) == "its device key is 7 bytes long, outside 8…512")
        #expect(grantProblem(key: String(repeating: "k", count: 512)) == nil)
        #expect(grantProblem(key: String(repeating: "k", count: 513)) != nil)
        #expect(grantProblem(key: "") != nil)
        #expect(grantProblem(key: "ccd_AAAA\r\nX-Evil: 1")?.hasPrefix("its device key holds a character") == true)
        #expect(grantProblem(key: "ccd_AAAA\nBBBB") != nil)
        #expect(grantProblem(key: "ccd_AAAA BBBB") != nil)
        #expect(grantProblem(key: "ccd_AAAA\u{0}BBBB") != nil)
        #expect(grantProblem(key: "ccd_AAAAé_BBBB") != nil)
        #expect(grantProblem(key: "ccd_AAAA=BBBB") != nil)
        #expect(grantProblem(key: "========") != nil)
        #expect(grantProblem(collectorID: "fake-collector") == "its collector_id 'fake-collector' is not a UUID")
        #expect(grantProblem(collectorID: "") != nil)
        #expect(grantProblem(name: "") != nil)
        #expect(grantProblem(name: "P\u{202E}710") != nil)
        #expect(grantProblem(name: "P0\n17") != nil)
        #expect(grantProblem(name: String(repeating: "n", count: 64)) == nil)
        #expect(grantProblem(name: String(repeating: "n", count: 65)) != nil)
    }

    @Test("a label with a bidi override or isolate is refused by the one text rule, as a note is")
    func labelsUseTheTextRule() {
        for scalar in ["\u{202E}", "\u{202A}", "\u{2066}", "\u{2069}", "\u{2028}", "\u{85}"] {
            #expect(StudyNames.labelProblem("calm" + scalar + "x", what: "the condition") != nil, "\(scalar.unicodeScalars.first!.value)")
            #expect((try? SessionNote.validated("calm" + scalar + "x")) == nil)
        }
        #expect(StudyNames.labelProblem("calme é 👍🏽", what: "the condition") == nil)
    }
}
