import Testing

/// Help is what a person types first: `--help` on the program and on a command, and `help COMMAND`,
/// print the usage on standard output with status 0 and nothing on standard error.
@Suite struct HelpCommandTests {
    @Test(arguments: [
        (["--help"], "USAGE: chronoception <subcommand>"),
        (["-h"], "USAGE: chronoception <subcommand>"),
        (["help"], "USAGE: chronoception <subcommand>"),
        (["help", "export"], "USAGE: chronoception export <subcommand>"),
        (["export", "--help"], "USAGE: chronoception export <subcommand>"),
        (["sync", "add", "--help"], "USAGE: chronoception sync add [--data-dir <data-dir>] <url> --code <code>"),
        // The collector's own program answers, from beside this one (swift build --product chronoception-collector).
        (["collector", "--help"], "USAGE: chronoception-collector <subcommand>"),
        (["collector", "enrol", "--help"], "USAGE: chronoception-collector enrol <name>"),
        (["help", "collector"], "chronoception collector ARGS` runs `chronoception-collector ARGS"),
        (["bench", "timing", "--help"], "USAGE: chronoception bench timing"),
    ])
    func helpGoesToStandardOutput(arguments: [String], usage: String) throws {
        let binary = try #require(FullDiskCommandTests.binary(), "build the chronoception executable first (swift build)")
        let result = try FullDiskCommandTests.run(binary, arguments)
        #expect(result.status == 0)
        #expect(result.output.contains(usage), "\(arguments): \(result.output.prefix(200))")
        #expect(result.errors.isEmpty, "\(arguments): \(result.errors)")
    }
}
