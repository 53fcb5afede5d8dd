import ArgumentParser
import ChronoCore

/// `chronoception fear`: Challenge plus the aversive sound after a large error. An experiment, so it
/// needs an explicit opt-in on every run; it checks that sound will really come out first.
struct FearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fear",
        abstract: "Run a Fear session (Challenge plus an aversive sound after a large error). Opt-in.",
        discussion: "Fear Mode is an experiment and never the default: pass --i-understand-fear-mode to run it. Before the session the sound device is checked; if it is missing, muted or at zero volume the session behaves like Challenge and records fear_sound_effective = false.")

    @Option(help: "How many attempts (1 to 99).")
    var attempts: Int = SessionConfiguration.defaultAttemptCount

    @Option(name: .customLong("fear-threshold"), help: "Play the sound when the error is at least this fraction of the interval (0.10 = 10 %).")
    var fearThreshold: Double = SessionConfiguration.defaultFearThreshold

    @Flag(name: .customLong("i-understand-fear-mode"), help: "Opt in to Fear Mode's aversive sound.")
    var optedIn = false

    @OptionGroup var options: LiveSessionOptions

    func validate() throws {
        guard optedIn else {
            throw ValidationError("Fear Mode plays an aversive sound after large errors; it is an experiment and is opt-in. Run again with --i-understand-fear-mode to accept it, or use `chronoception challenge`.")
        }
    }

    func run() throws {
        try LiveSession.run(mode: .fear, count: attempts, fearThreshold: fearThreshold, options: options)
    }
}
