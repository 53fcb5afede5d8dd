import ArgumentParser
import ChronoCore

/// `chronoception challenge`: a real Challenge session on the board, in real time.
struct ChallengeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "challenge",
        abstract: "Run a Challenge session: press to start, press again when you think the interval has passed.")

    @Option(help: "How many attempts (1 to 99). Default: the default-attempts setting (1).")
    var attempts: Int?

    @OptionGroup var options: LiveSessionOptions

    func validate() throws {
        try SessionArgumentCheck.check(mode: .challenge, count: attempts)
    }

    func run() throws {
        try SingleSessionCommand.run(mode: .challenge, count: attempts, options: options)
    }
}
