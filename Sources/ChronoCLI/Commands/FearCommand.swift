import ArgumentParser
import ChronoCore

/// `chronoception fear`: Challenge plus the aversive sound after a large error. An experiment, so it
/// needs an explicit opt-in on every run; it checks that sound will really come out first.
struct FearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fear",
        abstract: "Run a Fear session (Challenge plus an aversive sound after a large error). Opt-in.",
        discussion: "Fear Mode is an experiment and never the default: pass --i-understand-fear-mode, or turn the fear-mode setting on. Before the session the sound device is checked; if it is missing, muted or at zero volume the session behaves like Challenge and records fear_sound_effective = false.")

    @Option(help: "How many attempts (1 to 99). Default: the default-attempts setting (1).")
    var attempts: Int?

    @Option(name: .customLong("fear-threshold"), help: "Play the sound when the error is at least this fraction of the interval (0.10 = 10 %). Default: the fear-threshold setting.")
    var fearThreshold: Double?

    @Flag(name: .customLong("i-understand-fear-mode"), help: "Opt in to Fear Mode's aversive sound for this run (or: chronoception settings set fear-mode on).")
    var optedIn = false

    @OptionGroup var options: LiveSessionOptions

    func validate() throws {
        try SessionArgumentCheck.check(mode: .fear, count: attempts, fearThreshold: fearThreshold)
    }

    func run() throws {
        try SingleSessionCommand.run(mode: .fear, count: attempts, fearThreshold: fearThreshold, fearOptedIn: optedIn, options: options)
    }
}
