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
        let store = try options.store.openWritableStore()
        deliverOwedRecords(store)
        let settings: StoreSettings
        do { settings = try store.settings() } catch { throw CommandFailure(error) }
        var flags = options.flags
        flags.mode = mode
        flags.fearThreshold = fearThreshold
        flags.fearOptIn = fearOptedIn
        if mode.usesAttempts { flags.attempts = count } else { flags.repetitions = count }
        if mode == .fear && !SessionResolver.fearAllowed(flags: flags, settings: settings) {
            throw ValidationError("Fear Mode plays an aversive sound after large errors; it is an experiment and is opt-in. Run again with --i-understand-fear-mode, or turn it on with `chronoception settings set fear-mode on`; or use `chronoception challenge`.")
        }
        let drivers = try BoardDrivers(boardName: options.board, flags: flags, bell: options.bell,
                                       keyHoldMilliseconds: options.keyHoldMilliseconds, motorLog: options.motorLog)
        defer { drivers.close() }
        let configuration: SessionConfiguration
        do {
            configuration = try SessionResolver.configuration(
                flags: flags, settings: settings, board: BoardTiming(drivers.board),
                pattern: { try? store.pattern(for: $0, nowUnixSeconds: nowUnixSeconds) })
        } catch {
            throw usageFailure(error)
        }

        var sound: (output: SoundOutput?, status: SoundStatus) = (nil, .inaudible(reason: "not a Fear session"))
        if mode == .fear { sound = drivers.openSound() }
        defer { sound.output?.close() }

        var context = SessionContext(board: drivers.board.name, pressHint: drivers.pressHint,
                                     soundAudibility: sound.status,
                                     healthStatus: HealthNotes.stateText(settings: settings, store: store))
        context.glanceablePrivacy = settings.glanceablePrivacy
        // The state file's last_session from the first state on, as the daemon's (nil before any).
        context.lastSession = ((try? store.sessionPage(SessionQuery(status: .completed, limit: 1)))?.sessions.first)
            .map(RuntimeState.LastSession.init)
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

    /// Health records owed because a process died between a session's commit and its log append are
    /// written now, at the start of the next session command or daemon (exactly once: the log's sync
    /// identifiers are checked first). A failure is said and the session goes on.
    static func deliverOwedRecords(_ store: ChronoStore) {
        do {
            let written = try store.deliverOrphanedRecords(nowUnixNanoseconds: LocalTimeZone.nowUnixNanoseconds())
            if written > 0 {
                printError("Health log: wrote \(written) record\(written == 1 ? "" : "s") left owed by a program that stopped before writing \(written == 1 ? "it" : "them").")
            }
        } catch {
            printError("Health log: owed records could not be written now (\(error)); `chronoception health backfill` writes them.")
        }
    }
}
