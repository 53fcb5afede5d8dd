import ArgumentParser
import ChronoCore
import ChronoHardware
import ChronoRuntime
import Foundation

/// What `challenge`, `fear` and `passive` share: open the board, run one session in real time on it,
/// put everything back, and exit with a status that says how it ended.
enum LiveSession {
    static func run(mode: SessionMode, count: Int?, fearThreshold: Double = SessionConfiguration.defaultFearThreshold,
                    options: LiveSessionOptions) throws {
        let drivers = try BoardDrivers(boardName: options.board, bell: options.bell,
                                       keyHoldMilliseconds: options.keyHoldMilliseconds, motorLog: options.motorLog)
        defer { drivers.close() }
        let gestures = options.gestures(for: drivers.board)
        let patterns = IntervalPatternBook.candidates
        let configuration: SessionConfiguration
        do {
            configuration = try SessionConfiguration(
                mode: mode, interval: options.trainingInterval, plannedCount: count, fearThreshold: fearThreshold,
                intervalPattern: patterns[0], timing: options.timing.timing, gestures: gestures)
        } catch {
            throw usageFailure(error)
        }

        var sound: (output: SoundOutput?, status: SoundStatus) = (nil, .inaudible(reason: "not a Fear session"))
        if mode == .fear { sound = drivers.openSound() }
        defer { sound.output?.close() }

        let library = InMemoryDeviceLibrary(startingConfiguration: configuration, healthStatus: "on (JSON lines on standard output until the store exists)")
        let context = SessionContext(board: drivers.board.name, pressHint: drivers.pressHint,
                                     soundAudibility: sound.status, healthStatus: library.healthStatus())
        let controller = SingleSessionController(configuration: configuration, context: context)
        let motor = drivers.motorSettings
        let loop = try SessionLoop(
            button: drivers.button, motor: drivers.motor, sound: sound.output, controller: controller,
            sinks: LoopSinks(console: drivers.console, stateFile: options.stateFileLocation,
                             recorder: JSONLinesRecorder(output: drivers.console)),
            settings: SessionLoop.Settings(onsetLatency: motor.onsetLatency, safeMaximumOn: motor.safeMaximumOn,
                                           realtimePriority: options.noRealtime ? nil : RealtimeScheduling.defaultPriority))
        drivers.quitRelay.connect(loop.stopper)
        if drivers.board.button.driver == .terminal {
            drivers.console.writeLine("Board \(drivers.board.name): space or Enter is the button (hold for a long press), q quits.")
        }
        let report = try LoopThread.run(loop)
        drivers.close()
        let status = LoopThread.exitStatus(for: report.ending)
        if status != 0 { throw ExitCode(status) }
    }
}
