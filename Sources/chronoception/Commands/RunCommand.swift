import ArgumentParser
import ChronoCore
import ChronoHardware
import ChronoRuntime
import Foundation

/// `chronoception run`: the device daemon (SPEC §7). Idle until the button is used: a tap starts the
/// last session configuration, a long press offers the presets (each announced by its H(I)) and a tap
/// picks one; sessions follow one another until SIGTERM/SIGINT (or `q` on the desktop).
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the device: the one-button idle menu and sessions one after another, until stopped.",
        discussion: "Completed sessions are printed as JSON lines (with their health record) until the store is set up. The state file shows what the device is doing; read it with `chronoception status`.")

    @Option(help: "The mode an idle tap starts until another is chosen: challenge, fear or passive.")
    var mode: SessionMode = .challenge

    @Option(help: "Attempts for Challenge and Fear (1 to 99).")
    var attempts: Int = SessionConfiguration.defaultAttemptCount

    @Option(help: "Repetitions for Passive (1 to 99).")
    var repetitions: Int = SessionConfiguration.defaultRepetitionCount

    @Flag(name: .customLong("i-understand-fear-mode"), help: "Opt in to Fear Mode (otherwise a Fear configuration runs as Challenge).")
    var fearOptIn = false

    @OptionGroup var options: LiveSessionOptions

    func validate() throws {
        if mode == .fear && !fearOptIn {
            throw ValidationError("--mode fear needs --i-understand-fear-mode: Fear Mode is an experiment and opt-in.")
        }
    }

    func run() throws {
        let drivers = try BoardDrivers(boardName: options.board, bell: options.bell,
                                       keyHoldMilliseconds: options.keyHoldMilliseconds, motorLog: options.motorLog)
        defer { drivers.close() }
        let gestures = options.gestures(for: drivers.board)
        let starting: SessionConfiguration
        do {
            starting = try SessionConfiguration(
                mode: mode, interval: options.trainingInterval, plannedCount: mode.usesAttempts ? attempts : repetitions,
                timing: options.timing.timing, gestures: gestures)
        } catch {
            throw usageFailure(error)
        }
        var sound: (output: SoundOutput?, status: SoundStatus) = (nil, .inaudible(reason: "Fear Mode is not opted into"))
        if fearOptIn {
            sound = drivers.openSound()
            if case .inaudible(let reason) = sound.status {
                drivers.console.writeLine("Sound is disabled (\(reason)). Fear sessions will behave like Challenge.")
            }
        }
        defer { sound.output?.close() }
        let soundStatus = sound.status

        let library = InMemoryDeviceLibrary(startingConfiguration: starting, healthStatus: "on (JSON lines on standard output until the store exists)")
        let controller = DeviceDaemonController(library: library, board: drivers.board.name, pressHint: drivers.pressHint,
                                                fearAllowed: fearOptIn, soundStatus: { soundStatus })
        let motor = drivers.motorSettings
        let loop = try SessionLoop(
            button: drivers.button, motor: drivers.motor, sound: sound.output, controller: controller,
            sinks: LoopSinks(console: drivers.console, stateFile: options.stateFileLocation,
                             recorder: RecorderFanOut([library, JSONLinesRecorder(output: drivers.console)])),
            settings: SessionLoop.Settings(onsetLatency: motor.onsetLatency, safeMaximumOn: motor.safeMaximumOn,
                                           realtimePriority: options.noRealtime ? nil : RealtimeScheduling.defaultPriority))
        drivers.quitRelay.connect(loop.stopper)
        let report = try LoopThread.run(loop)
        drivers.close()
        // Stopping the daemon is its normal end, whatever stopped it.
        if case .signal(let number) = report.ending, number != SIGTERM && number != SIGINT {
            throw ExitCode(128 + number)
        }
    }
}
