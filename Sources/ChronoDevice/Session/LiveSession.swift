import ChronoCommandLine
import ChronoCore
import ChronoHardware
import ChronoRuntime
import ChronoStore
import Foundation

/// What `challenge`, `fear` and `passive` share once their arguments are parsed: open the board, run
/// one session in real time on it, put everything back, and say how it ended (an exit status).
public enum LiveSession {
    /// Runs one session of `flags` (mode and count included) on the board of `options`.
    /// - Returns: the exit status for how the loop ended (0, or 128 + a signal).
    /// - Throws: `InvalidSessionChoice` when flags, settings and board make no session (a usage
    ///   error); a `CommandFailure` for sessions the store could not keep or a button unplugged; the
    ///   drivers' errors.
    public static func run(store: ChronoStore, settings: StoreSettings, flags: SessionFlags, options: LiveOptions) throws -> Int32 {
        let drivers = try options.openDrivers(flags: flags)
        defer { drivers.close() }
        let configuration: SessionConfiguration
        do {
            configuration = try SessionResolver.configuration(
                flags: flags, settings: settings.session, board: BoardTiming(drivers.board),
                pattern: { try? store.pattern(for: $0, nowUnixSeconds: LocalTimeZone.nowUnixNanoseconds() / 1_000_000_000) })
        } catch {
            throw InvalidSessionChoice(underlying: error)
        }

        var sound: (output: SoundOutput?, status: SoundStatus) = (nil, .inaudible(reason: "not a Fear session"))
        if flags.mode == .fear { sound = drivers.openSound() }
        defer { sound.output?.close() }

        var context = SessionContext(board: drivers.board.name, pressHint: drivers.pressHint,
                                     soundAudibility: sound.status,
                                     healthStatus: HealthNotes.stateText(settings: settings, store: store))
        context.glanceablePrivacy = settings.glanceablePrivacy
        // The state file's last_session from the first state on, as the daemon's (nil before any).
        context.lastSession = ((try? store.sessionPage(SessionQuery(status: .completed, limit: 1)))?.sessions.first)
            .map(DeviceState.LastSession.init)
        let controller = SingleSessionController(configuration: configuration, context: context)
        let motor = drivers.motorSettings
        let loop = try SessionLoop(
            button: drivers.button, motor: drivers.motor, sound: sound.output, controller: controller,
            sinks: LoopSinks(console: drivers.console, stateFile: options.stateFile,
                             recorder: options.recorder(store: store, console: drivers.console)),
            settings: SessionLoop.Settings(onsetLatency: motor.onsetLatency, safeMaximumOn: motor.safeMaximumOn,
                                           realtimePriority: options.realtimePriority))
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
        return LoopThread.exitStatus(for: report.ending)
    }

    /// Health records owed because a process died between a session's commit and its log append are
    /// written now, at the start of the next session command or daemon (exactly once: the log's sync
    /// identifiers are checked first). A failure is said and the session goes on.
    public static func deliverOwedRecords(_ store: ChronoStore) {
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
