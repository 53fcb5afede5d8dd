import ArgumentParser

/// `chronoception bench`: measurements of the running program (see benchmarks/).
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the program on this machine.",
        subcommands: [BenchTimingCommand.self])
}
