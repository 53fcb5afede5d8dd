import ChronoCore
import Testing

/// One rule for counted nouns: singular for exactly one.
@Suite struct CountTextTests {
    @Test func singularForOneOnly() {
        #expect(CountText.of(0, "session") == "0 sessions")
        #expect(CountText.of(1, "session") == "1 session")
        #expect(CountText.of(2, "session") == "2 sessions")
        #expect(CountText.of(-1, "session") == "-1 sessions")
        #expect(CountText.of(1, "batch", plural: "batches") == "1 batch")
        #expect(CountText.of(3, "batch", plural: "batches") == "3 batches")
    }
}
