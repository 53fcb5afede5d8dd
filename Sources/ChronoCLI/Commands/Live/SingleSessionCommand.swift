import ArgumentParser
import ChronoCommandLine
import ChronoCore
import ChronoDevice
import ChronoStore

/// The command-line half of `challenge`, `fear` and `passive`: gathers the flags, refuses a Fear
/// session not opted into, and turns `LiveSession`'s outcome into an exit status.
enum SingleSessionCommand {
    /// - Parameters:
    ///   - count: attempts or repetitions from the command line; nil means the setting.
    ///   - fearThreshold: from the command line; nil means the setting.
    ///   - fearOptedIn: `--i-understand-fear-mode` was given (the fear-mode setting also opts in).
    static func run(mode: SessionMode, count: Int?, fearThreshold: Double? = nil, fearOptedIn: Bool = false,
                    options: LiveSessionOptions) throws {
        let (store, settings) = try options.openStore()
        var flags = options.flags
        flags.mode = mode
        flags.fearThreshold = fearThreshold
        flags.fearOptIn = fearOptedIn
        if mode.usesAttempts { flags.attempts = count } else { flags.repetitions = count }
        if !SessionResolver.fearPermission(flags: flags, settings: settings.session).allowsByName(mode) {
            throw ValidationError("Fear Mode plays an aversive sound after large errors; it is an experiment and is opt-in. Run again with --i-understand-fear-mode, or turn it on with `chronoception settings set fear-mode on`; or use `chronoception challenge`.")
        }
        let status: Int32
        do {
            status = try LiveSession.run(store: store, settings: settings, flags: flags, options: options.live)
        } catch let error as InvalidSessionChoice {
            throw usageFailure(error)
        }
        if status != 0 { throw ExitCode(status) }
    }
}
