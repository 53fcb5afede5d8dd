import ChronoCore
import Testing

/// A finish that does not say what its start established takes the start's facts, and keeps its own
/// where it says them; without a start they stay unknown (the keeper decides then).
@Suite("A finish with its start's facts")
struct SessionStartFactsTests {
    @Test func theStartFillsWhatTheFinishLeavesUnknown() throws {
        let finish = try SessionValidationTests.challenge()
        #expect(finish.soundAudibleAtStart == nil && finish.wallClockSynchronised == nil)
        let start = SessionStartRecord(sessionID: finish.sessionID, configuration: finish.outcome.configuration, anchor: finish.anchor,
                                       board: finish.board, soundAudible: false, wallClockSynchronised: true)
        let filled = finish.withStartFacts(of: start)
        #expect(filled.soundAudibleAtStart == false && filled.wallClockSynchronised == true)
        #expect(filled.outcome == finish.outcome && filled.sessionID == finish.sessionID)

        var said = finish
        said.soundAudibleAtStart = true
        said.wallClockSynchronised = false
        let kept = said.withStartFacts(of: start)
        #expect(kept.soundAudibleAtStart == true && kept.wallClockSynchronised == false)

        let unseen = finish.withStartFacts(of: nil)
        #expect(unseen.soundAudibleAtStart == nil && unseen.wallClockSynchronised == nil)
    }
}
