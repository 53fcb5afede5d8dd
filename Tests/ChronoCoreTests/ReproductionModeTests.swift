import Testing
@testable import ChronoCore

@Suite("Reproduction mode: the fourth SessionMode (issue 24's contract item 1)")
struct ReproductionModeTests {
    @Test("the raw value is reproduction, it parses in any case and it is made of attempts")
    func theCase() throws {
        #expect(SessionMode.reproduction.rawValue == "reproduction")
        #expect(try SessionMode(parsing: "Reproduction") == .reproduction)
        #expect(SessionMode.reproduction.usesAttempts)
        #expect(SessionMode.allCases == [.challenge, .fear, .passive, .reproduction])
        #expect(SessionMode.reproduction.title == "Reproduction")
    }

    @Test("an unknown mode's message lists all four modes")
    func unknownModeMessage() {
        #expect(throws: ConfigurationError.unknownMode("sprint")) { try SessionMode(parsing: "sprint") }
        #expect(ConfigurationError.unknownMode("sprint").description == "'sprint' is not a mode. Use challenge, fear, passive or reproduction.")
    }
}
