import ArgumentParser
import ChronoAPI
import ChronoCommandLine
import ChronoCore
import ChronoDevice
import ChronoStore
import Foundation

/// `chronoception run`: the device daemon (SPEC §7). Idle until the button is used: a tap starts the
/// last session configuration, a long press offers the presets (each announced by its H(I)) and a tap
/// picks one; sessions follow one another until SIGTERM/SIGINT (or `q` on the desktop).
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the device: the one-button idle menu and sessions one after another, until stopped.",
        discussion: "Sessions are saved in the store (and logged to health when due); the idle tap starts the last session's configuration, or the settings' defaults before the first session or after a default-… setting changed. --mode, --interval, --attempts and --repetitions set what the first tap starts. Settings changed with `chronoception settings set` apply from the next session, without a restart; SIGHUP re-reads the board file's long press and debounce and the settings when the daemon has no terminal (a service); started from a terminal, it stops when that terminal closes (SIGHUP), as on Ctrl-C. Under systemd with StateDirectory=chronoception the data lives in /var/lib/chronoception. The state file shows what the device is doing; read it with `chronoception status`.")

    @Option(help: "The mode the first idle tap starts: \(SessionMode.listText) (default: the last session's, else the default-mode setting).")
    var mode: SessionMode?

    @Option(help: "Attempts for \(SessionMode.attemptModesText) (1 to 99) for the first idle tap.")
    var attempts: Int?

    @Option(help: "Repetitions for \(SessionMode.boundaryModesText) (1 to 99) for the first idle tap.")
    var repetitions: Int?

    @Flag(name: .customLong("i-understand-fear-mode"), help: "Opt in to Fear Mode (or: chronoception settings set fear-mode on); otherwise a Fear configuration runs as Challenge.")
    var fearOptIn = false

    @OptionGroup var options: LiveSessionOptions

    @OptionGroup(title: "Device API (docs/API.md)") var api: ListenOptions

    @Flag(name: .customLong("no-api"), help: "Do not serve the device API and the web companion.")
    var noAPI = false

    /// Tests only: where the first-boot problem marker is looked for (the device's is fixed).
    @Option(name: .customLong("first-boot-problems"), help: .hidden)
    var firstBootProblems: String?

    /// Tests only: the sysfs root the battery is read under (a temporary tree; the device's is /sys).
    @Option(name: .customLong("battery-sysfs"), help: .hidden)
    var batterySysfs: String?

    /// Tests only: read the battery every this many ms (the device reads it once a minute).
    @Option(name: .customLong("battery-poll-ms"), help: .hidden)
    var batteryPollMilliseconds: Int64?

    @Option(name: .customLong("power-off-request"), help: ArgumentHelp(
        "At the battery's critical level, create FILE instead of running `systemctl poweroff` (the system unit passes /run/chronoception/power-off, which chronoception-power-off.path turns into a clean power-off).",
        valueName: "FILE"))
    var powerOffRequest: String?

    /// Tests only: the program run instead of `systemctl poweroff` at the critical level (no arguments).
    @Option(name: .customLong("power-off-command"), help: .hidden)
    var powerOffCommand: String?

    func validate() throws {
        // Each count for the mode it is for; the first idle tap's mode is not known yet.
        try SessionArgumentCheck.check(mode: .challenge, count: attempts)
        try SessionArgumentCheck.check(mode: .passive, count: repetitions)
        if powerOffRequest != nil, powerOffCommand != nil {
            throw ValidationError("--power-off-request and --power-off-command are two ways to power off: give one.")
        }
        if let powerOffRequest, let problem = PowerOff.requestPathProblem(powerOffRequest) { throw ValidationError(problem) }
    }

    func run() throws {
        if firstBootProblems != nil { try TestMode.require(for: "--first-boot-problems") }
        if batterySysfs != nil { try TestMode.require(for: "--battery-sysfs") }
        if powerOffCommand != nil { try TestMode.require(for: "--power-off-command") }
        if let batteryPollMilliseconds {
            try TestMode.require(for: "--battery-poll-ms")
            guard (10...3_600_000).contains(batteryPollMilliseconds) else { throw ValidationError("--battery-poll-ms must be from 10 to 3600000 ms.") }
        }
        let (store, settings) = try options.openStore()
        var flags = options.flags
        flags.mode = mode
        flags.attempts = attempts
        flags.repetitions = repetitions
        flags.fearOptIn = fearOptIn
        if let mode, !SessionResolver.fearPermission(flags: flags, settings: settings.session).allowsByName(mode) {
            throw ValidationError("--mode fear needs --i-understand-fear-mode (or `chronoception settings set fear-mode on`): Fear Mode is an experiment and opt-in.")
        }
        var configuration = DeviceDaemon.Configuration(
            store: store, settings: settings, flags: flags, live: options.live,
            api: noAPI ? nil : try listenOptions().configuration(stopOnSignals: false, listenSource: listenSource()),
            // SIGHUP means two things: a service manager's "reload" (`systemctl reload`), and a
            // terminal that went away. Started from a terminal, the device stops as on Ctrl-C when its
            // terminal closes, instead of running on unseen with nobody to end it; without one, it reloads.
            hangupReloads: isatty(STDIN_FILENO) == 0,
            firstBootProblemsPath: firstBootProblems ?? "/" + FirstBootPlan.Path.problems)
        if let batterySysfs { configuration.batteryRoot = batterySysfs }
        if let batteryPollMilliseconds { configuration.batteryPollInterval = .milliseconds(batteryPollMilliseconds) }
        if let powerOffCommand { configuration.powerOff = .command([powerOffCommand]) }
        if let powerOffRequest { configuration.powerOff = .requestFile(powerOffRequest) }
        let daemon = DeviceDaemon(configuration)
        let status: Int32
        do { status = try daemon.run() } catch let error as InvalidSessionChoice { throw usageFailure(error) }
        if status != 0 { throw ExitCode(status) }
    }

    /// `--listen`, else `$CHRONOCEPTION_LISTEN` (the service's /etc/default/chronoception, set by the
    /// image's first-boot file's companion_network; docs/FIRST-BOOT.md), else loopback.
    func listenOptions(environment: [String: String] = ProcessInfo.processInfo.environment) -> ListenOptions {
        var options = api
        if options.listen == nil, let listen = environment["CHRONOCEPTION_LISTEN"], !listen.isEmpty { options.listen = listen }
        return options
    }

    /// Where the address `listenOptions` took came from, so that a bad one is blamed on the line the
    /// person must fix: the option, or the environment variable (for the service, its environment file).
    func listenSource(environment: [String: String] = ProcessInfo.processInfo.environment) -> ListenOptions.Source {
        api.listen == nil && !(environment["CHRONOCEPTION_LISTEN"] ?? "").isEmpty ? .environment : .option
    }
}
