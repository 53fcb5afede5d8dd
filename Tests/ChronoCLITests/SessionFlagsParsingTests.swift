import ArgumentParser
import ChronoCore
import ChronoTesting
import Testing
@testable import ChronoCLI

/// The command line's half of the resolver: options parse into `SessionFlags` (the rules themselves
/// are the core's, Tests/ChronoCoreTests/SessionResolverTests).
@Suite("Command-line options → the resolver's flags")
struct SessionFlagsParsingTests {
    @Test("Command-line options parse into the resolver's flags, nil when not given")
    func optionsToFlags() throws {
        let none = try LiveSessionOptions.parse([]).flags
        #expect(none.longPressMilliseconds == nil && none.autoStart == nil && none.interval == nil)
        let some = try LiveSessionOptions.parse(["--long-press-ms", "1500", "--no-auto-start", "--interval", "90"]).flags
        #expect(some.longPressMilliseconds == 1500 && some.autoStart == false && some.interval?.seconds == 90)
    }

    @Test("fear and run --mode fear without the opt-in are refused before any device opens, naming both ways to opt in (exit 64)")
    func fearNamedWithoutOptIn() throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let data = ["--data-dir", scratch.directory, "--board", "desktop", "--no-state-file"]
        let fear = try FullDiskCommandTests.run(binary, ["fear", "--interval", "1m"] + data)
        #expect(fear.status == 64)
        #expect(fear.errors.hasPrefix("error: Fear Mode plays an aversive sound after large errors; it is an experiment and is opt-in. Run again with --i-understand-fear-mode, or turn it on with `chronoception settings set fear-mode on`"))
        let run = try FullDiskCommandTests.run(binary, ["run", "--mode", "fear", "--no-api"] + data)
        #expect(run.status == 64)
        #expect(run.errors.hasPrefix("error: --mode fear needs --i-understand-fear-mode (or `chronoception settings set fear-mode on`)"))
    }
}
