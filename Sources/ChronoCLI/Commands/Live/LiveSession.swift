import ArgumentParser
import ChronoCore
import ChronoHardware
import ChronoRuntime
import ChronoStore
import Foundation

/// What `challenge`, `fear` and `passive` share: open the board, run one session in real time on it,
/// put everything back, and exit with a status that says how it ended.
enum LiveSession {
    /// - Parameters:
    ///   - count: attempts or repetitions from the command line; nil means the setting.
    ///   - fearThreshold: from the command line; nil means the setting.
    ///   - fearOptedIn: `--i-understand-fear-mode` was given (the fear-mode setting also opts in).
    static func run(mode: SessionMode, count: Int?, fearThreshold: Double? = nil, fearOptedIn: Bool = false,
                    options: LiveSessionOptions) throws {
        // The store first: a broken database is reported before any device is touched.
        let store = try options.store.openStore()
        let settings: StoreSettings
        do { settings = try store.settings() } catch { throw CommandFailure(error) }
        if mode == .fear && !fearOptedIn && !settings.fearModeEnabled {
            throw ValidationError("Fear Mode plays an aversive sound after large errors; it is an experiment and is opt-in. Run again with --i-understand-fear-mode, or turn it on with `chronoception settings set fear-mode on`; or use `chronoception challenge`.")
        }
        let drivers = try BoardDrivers(boardName: options.board, bell: options.bell,
                                       keyHoldMilliseconds: options.keyHoldMilliseconds, motorLog: options.motorLog)
        defer { drivers.close() }
        let interval = options.explicitInterval ?? settings.defaultInterval
        let configuration: SessionConfiguration
        do {
            configuration = try SessionConfiguration(
                mode: mode, interval: interval,
                plannedCount: count ?? (mode.usesAttempts ? settings.defaultAttempts : settings.defaultRepetitions),
                fearThreshold: fearThreshold ?? settings.fearThreshold,
                intervalPattern: (try? store.pattern(for: interval, nowUnixSeconds: nowUnixSeconds)) ?? IntervalPatternBook.candidates[0],
                timing: options.sessionTiming(settings: settings),
                gestures: options.gestures(for: drivers.board, settings: settings))
        } catch {
            throw usageFailure(error)
        }

        var sound: (output: SoundOutput?, status: SoundStatus) = (nil, .inaudible(reason: "not a Fear session"))
        if mode == .fear { sound = drivers.openSound() }
        defer { sound.output?.close() }

        let context = SessionContext(board: drivers.board.name, pressHint: drivers.pressHint,
                                     soundAudibility: sound.status, healthStatus: settings.healthStatus)
        let controller = SingleSessionController(configuration: configuration, context: context)
        let motor = drivers.motorSettings
        let loop = try SessionLoop(
            button: drivers.button, motor: drivers.motor, sound: sound.output, controller: controller,
            sinks: LoopSinks(console: drivers.console, stateFile: options.stateFileLocation,
                             recorder: options.recorder(store: store, console: drivers.console)),
            settings: SessionLoop.Settings(onsetLatency: motor.onsetLatency, safeMaximumOn: motor.safeMaximumOn,
                                           realtimePriority: options.noRealtime ? nil : RealtimeScheduling.defaultPriority))
        drivers.quitRelay.connect(loop.stopper)
        if let line = drivers.buttonIntroduction { drivers.console.writeLine(line) }
        let report = try LoopThread.run(loop)
        if case .stopped = report.ending, let evdev = drivers.button as? EvdevButton, evdev.isUnplugged() {
            drivers.close()
            throw CommandFailure(EvdevError(kind: .deviceGone, role: "button", device: evdev.path,
                                            detail: "\"\(evdev.name)\" was unplugged; the session was recorded as interrupted"))
        }
        drivers.close()
        if let failure = UnsavedSessionLog.process.failure { throw failure }
        let status = LoopThread.exitStatus(for: report.ending)
        if status != 0 { throw ExitCode(status) }
    }
}
