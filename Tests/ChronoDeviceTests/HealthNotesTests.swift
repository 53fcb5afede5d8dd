import Testing
@testable import ChronoDevice

@Suite struct HealthNotesTests {
    @Test("Owed records: reasons that read the same are counted once")
    func owedMerges() {
        #expect(HealthNotes.owedSummary(["logging_failing": 1, "write_failed": 1]) == "2 (2 after a write failure)")
        #expect(HealthNotes.owedSummary(["logging_off": 1, "write_failed": 2])
                == "3 (1 while logging was off, 2 after a write failure)")
    }

    @Test("Records left by a crash are not said to be 'being written'")
    func pendingWording() {
        let text = HealthNotes.owedSummary(["pending": 3])
        #expect(!text.contains("being written"))
        #expect(text == "3 (3 saved, not yet in the log — the next session or `run` writes them)")
    }

    @Test("Held-back records name the setting that ends the wait, only while the check is on")
    func heldBack() {
        #expect(HealthNotes.heldBack(0, wallClockCheck: true) == nil)
        let note = HealthNotes.heldBack(2, wallClockCheck: true)
        #expect(note?.hasPrefix("2 records are held back") == true)
        #expect(note?.contains("settings set wall-clock-check off") == true)
        #expect(HealthNotes.heldBack(1, wallClockCheck: false)?.contains("wall-clock-check off") == false)
    }
}
