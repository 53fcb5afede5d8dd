import ArgumentParser
import ChronoCore
import Testing
@testable import ChronoCLI

/// The command-line layer parses what README documents and refuses what it does not.
@Suite struct LiveSessionOptionsTests {
    @Test func intervalTakesEveryDocumentedSpelling() throws {
        for spelling in ["90", "90s", "1m30s", "1m 30s"] {
            let options = try LiveSessionOptions.parse(["--interval", spelling])
            #expect(options.explicitInterval == (try TrainingInterval(seconds: 90)), "\(spelling)")
        }
    }

    @Test func noIntervalMeansTheSetting() throws {
        let options = try LiveSessionOptions.parse([])
        #expect(options.explicitInterval == nil)
    }

    @Test func anUnknownFlagIsRefused() {
        #expect(throws: (any Error).self) { try LiveSessionOptions.parse(["--intreval", "5m"]) }
    }

    @Test func anIntervalBelowTheMinimumIsRefused() {
        #expect(throws: (any Error).self) { try LiveSessionOptions.parse(["--interval", "9"]) }
    }
}
