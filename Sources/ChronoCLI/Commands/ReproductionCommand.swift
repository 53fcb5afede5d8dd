import ArgumentParser
import ChronoCore

/// `chronoception reproduction`: a real Reproduction session on the board, in real time
/// (docs/REPRODUCTION.md).
struct ReproductionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reproduction",
        abstract: "Run a Reproduction session: the motor presents the interval, then you reproduce it with two presses.")

    @Option(help: "How many attempts (1 to 99). Default: the default-attempts setting (1).")
    var attempts: Int?

    @OptionGroup var options: LiveSessionOptions

    func validate() throws {
        try SessionArgumentCheck.check(mode: .reproduction, count: attempts)
    }

    func run() throws {
        try SingleSessionCommand.run(mode: .reproduction, count: attempts, options: options)
    }
}
