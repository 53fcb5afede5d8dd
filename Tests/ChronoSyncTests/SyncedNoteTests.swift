import ChronoCore
import Foundation
import Testing
@testable import ChronoSync

/// The note on the wire: optional, so a batch from a device older than notes decodes as before (and a
/// collector older than notes ignores the key); a refused note names the rule session_note.
@Suite("Synced session: the optional note")
struct SyncedNoteTests {
    static func noted(_ note: String?) throws -> SyncedSession {
        var session = try #require(SyncedSessionTests.wire(try SyncedSessionTests.challenge()))
        session.note = note
        return session
    }

    @Test("Sent as note and read back; absent when there is none")
    func roundTrip() throws {
        let session = try Self.noted("after coffee, \"strong\" ☕")
        let text = String(decoding: try JSONEncoder().encode(session), as: UTF8.self)
        #expect(text.contains(#""note":"after coffee, \"strong\" ☕""#))
        let decoded = try JSONDecoder().decode(SyncedSession.self, from: Data(text.utf8))
        #expect(decoded == session)
        #expect(throws: Never.self) { try decoded.validatedOutcome() }
        let none = String(decoding: try JSONEncoder().encode(try Self.noted(nil)), as: UTF8.self)
        #expect(!none.contains("\"note\""))
    }

    @Test("A session from an older device (no key at all) decodes with no note")
    func olderDevice() throws {
        var object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(try Self.noted("x"))) as! [String: Any]
        object.removeValue(forKey: "note")
        let decoded = try JSONDecoder().decode(SyncedSession.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(decoded.note == nil)
        #expect(throws: Never.self) { try decoded.validatedOutcome() }
        // And JSON null is no note too.
        object["note"] = NSNull()
        #expect(try JSONDecoder().decode(SyncedSession.self, from: JSONSerialization.data(withJSONObject: object)).note == nil)
    }

    @Test("Too long, a control character, untrimmed or empty: refused with rule session_note and the words", arguments: [
        (String(repeating: "n", count: 201), "The note is 201 characters long; a note holds at most 200. Shorten it."),
        ("=cmd|' /C calc'!A0\u{7}", "The note holds a control character (U+0007); write it on one line with ordinary characters."),
        ("tired ", "the note has surrounding whitespace or is empty; send it trimmed, or leave it out for no note"),
        ("", "the note has surrounding whitespace or is empty; send it trimmed, or leave it out for no note"),
    ])
    func refused(note: String, problem: String) throws {
        let session = try Self.noted(note)
        do {
            _ = try session.validatedOutcome()
            Issue.record("accepted \(note.debugDescription)")
        } catch {
            #expect(error.rule == "session_note")
            #expect(error.problem == problem)
        }
    }

    @Test("A formula is a note like any other on the wire (every CSV neutralises it)")
    func formula() throws {
        #expect(throws: Never.self) { try Self.noted("=HYPERLINK(\"http://x\")").validatedOutcome() }
    }
}
