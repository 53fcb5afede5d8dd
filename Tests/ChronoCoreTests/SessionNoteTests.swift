import ChronoCore
import Testing

@Suite struct SessionNoteTests {
    @Test func trimsAndKeepsOrdinaryText() throws {
        #expect(try SessionNote.validated("  after coffee \n") == "after coffee")
        #expect(try SessionNote.validated("tired") == "tired")
        #expect(try SessionNote.validated("café, 👍🏽 — ok") == "café, 👍🏽 — ok")
    }

    @Test func emptyIsNoNote() throws {
        #expect(try SessionNote.validated(nil) == nil)
        #expect(try SessionNote.validated("") == nil)
        #expect(try SessionNote.validated(" \t\n\u{3000}") == nil)
    }

    @Test func countsCharactersNotScalars() throws {
        // "👍🏽" is two scalars and one character; 200 of them are a note of 200 characters.
        let thumbs = String(repeating: "👍🏽", count: 200)
        #expect(thumbs.unicodeScalars.count == 400)
        let families = String(repeating: "👨‍👩‍👧‍👦", count: 200)
        #expect(try SessionNote.validated(families) == families)
        #expect(try SessionNote.validated(thumbs) == thumbs)
        let exactly = String(repeating: "a", count: 200)
        #expect(try SessionNote.validated(exactly) == exactly)
        #expect(throws: SessionNoteViolation(message: "The note is 201 characters long; a note holds at most 200. Shorten it.")) {
            try SessionNote.validated(String(repeating: "a", count: 201))
        }
        #expect(throws: SessionNoteViolation(message: "The note is 300 characters long; a note holds at most 200. Shorten it.")) {
            try SessionNote.validated(String(repeating: "é", count: 300))
        }
    }

    @Test func boundsBytesOfStackedMarks() {
        // One character carrying 4,000 combining acute accents: 1 character, 8,001 bytes.
        let stacked = "a" + String(repeating: "\u{301}", count: 4_000)
        #expect(stacked.count == 1)
        #expect(throws: SessionNoteViolation(message: "The note is 8001 bytes long in UTF-8 (characters stacked with many accents); a note holds at most 8000. Shorten it.")) {
            try SessionNote.validated(stacked)
        }
    }

    @Test func refusesWhatATerminalWouldEscape() {
        #expect(throws: SessionNoteViolation(message: "The note holds a line break; write it on one line with ordinary characters.")) {
            try SessionNote.validated("tired\nvery")
        }
        #expect(throws: SessionNoteViolation(message: "The note holds a tab; write it on one line with ordinary characters.")) {
            try SessionNote.validated("a\tb")
        }
        #expect(throws: SessionNoteViolation(message: "The note holds a control character (U+001B); write it on one line with ordinary characters.")) {
            try SessionNote.validated("\u{1B}[31mred")
        }
        #expect(throws: SessionNoteViolation(message: "The note holds a control character (U+0000); write it on one line with ordinary characters.")) {
            try SessionNote.validated("a\0b")
        }
        #expect(throws: SessionNoteViolation(message: "The note holds a control character (U+0085); write it on one line with ordinary characters.")) {
            try SessionNote.validated("a\u{85}b")
        }
        #expect(throws: SessionNoteViolation(message: "The note holds an invisible text-direction mark (U+202E); write it on one line with ordinary characters.")) {
            try SessionNote.validated("abc\u{202E}fed")
        }
        #expect(throws: SessionNoteViolation(message: "The note holds a line break; write it on one line with ordinary characters.")) {
            try SessionNote.validated("a\u{2028}b")
        }
    }

    @Test func formulaTextIsANote() throws {
        // A person's text; every CSV export neutralises it (CSVText).
        #expect(try SessionNote.validated("=HYPERLINK(\"x\")") == "=HYPERLINK(\"x\")")
    }

    @Test func codeIsStable() {
        #expect(SessionNoteViolation.code == "session_note")
        #expect(SessionRule.note.rawValue == "session_note")
    }

    @Test func terminalSafeTextAgrees() {
        for scalar: Unicode.Scalar in ["\u{0}", "\u{9}", "\u{A}", "\u{1F}", "\u{7F}", "\u{9F}", "\u{2028}", "\u{2066}"] {
            #expect(TerminalSafeText.isUnsafe(scalar))
        }
        for scalar: Unicode.Scalar in ["a", " ", "é", "\u{A0}", "\u{200D}"] {
            #expect(!TerminalSafeText.isUnsafe(scalar))
        }
    }
}
