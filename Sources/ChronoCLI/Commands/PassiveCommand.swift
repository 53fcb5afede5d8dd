import ArgumentParser
import ChronoCore

/// `chronoception passive`: the motor marks each interval boundary, k × interval from the start.
struct PassiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passive",
        abstract: "Run a Passive session: the motor marks each interval boundary; hold to end early.")

    @Option(help: "How many boundaries (1 to 99). Default: the default-repetitions setting (6).")
    var repetitions: Int?

    @OptionGroup var options: LiveSessionOptions

    func validate() throws {
        try SessionArgumentCheck.check(mode: .passive, count: repetitions)
    }

    func run() throws {
        try SingleSessionCommand.run(mode: .passive, count: repetitions, options: options)
    }
}
