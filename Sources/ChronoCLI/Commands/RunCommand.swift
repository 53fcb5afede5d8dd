import ArgumentParser
import ChronoAPI
import ChronoCore
import ChronoHardware
import ChronoRuntime
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

    @Option(help: "The mode the first idle tap starts: challenge, fear or passive (default: the last session's, else the default-mode setting).")
    var mode: SessionMode?

    @Option(help: "Attempts for Challenge and Fear (1 to 99) for the first idle tap.")
    var attempts: Int?

    @Option(help: "Repetitions for Passive (1 to 99) for the first idle tap.")
    var repetitions: Int?

    @Flag(name: .customLong("i-understand-fear-mode"), help: "Opt in to Fear Mode (or: chronoception settings set fear-mode on); otherwise a Fear configuration runs as Challenge.")
    var fearOptIn = false

    @OptionGroup var options: LiveSessionOptions

    @OptionGroup(title: "Device API (docs/API.md)") var api: ListenOptions

    @Flag(name: .customLong("no-api"), help: "Do not serve the device API and the web companion.")
    var noAPI = false

    func run() throws {
        let store = try options.store.openWritableStore()
        LiveSession.deliverOwedRecords(store)
        let settings: StoreSettings
        do { settings = try store.settings() } catch { throw CommandFailure(error) }
        var flags = options.flags
        flags.mode = mode
        flags.attempts = attempts
        flags.repetitions = repetitions
        flags.fearOptIn = fearOptIn
        if mode == .fear && !SessionResolver.fearAllowed(flags: flags, settings: settings) {
            throw ValidationError("--mode fear needs --i-understand-fear-mode (or `chronoception settings set fear-mode on`): Fear Mode is an experiment and opt-in.")
        }
        // SIGHUP means two things: a service manager's "reload" (`systemctl reload`), and a terminal
        // that went away. Started from a terminal, the device stops as on Ctrl-C when its terminal
        // closes, instead of running on unseen with nobody to end it; without one, it reloads.
        let hangupReloads = isatty(STDIN_FILENO) == 0
        guard var drivers = try openDriversWaitingForButton(hangupReloads: hangupReloads) else { return }
        var driversOpen = true
        defer { if driversOpen { drivers.close() } }
        do {
            // The first session's flags are checked now, not at the first tap.
            _ = try SessionResolver.configuration(flags: flags, settings: settings, board: BoardTiming(drivers.board))
        } catch {
            throw usageFailure(error)
        }
        let console = drivers.console
        let library = StoreDeviceLibrary(store: store, flags: flags, board: drivers.board,
                                         report: { console.writeLine($0) })
        // Sound is opened once, for the life of the daemon, when Fear may be used at all (the flag or
        // the setting at start; turning `fear-mode` on later needs a restart to open the device).
        var sound: (output: SoundOutput?, status: SoundStatus) = (nil, .inaudible(reason: "Fear Mode was not opted into when the device started"))
        let soundOpened = SessionResolver.fearAllowed(flags: flags, settings: settings)
        if soundOpened {
            sound = drivers.openSound()
            if case .inaudible(let reason) = sound.status {
                drivers.console.writeLine("Sound is disabled (\(reason)). Fear sessions will behave like Challenge.")
            }
        }
        defer { sound.output?.close() }
        let soundStatus = sound.status

        let keeper = SnapshotKeeper(library: library)
        // One event hub for the daemon's life: the API's live events and status read it; the loop
        // behind it may be replaced when an input-device button comes back.
        let events = RuntimeEventHub()
        let device = DaemonDevice(hub: events)
        let server = noAPI ? nil : DaemonAPIServer.start(store: store, device: device, configuration: try api.configuration(stopOnSignals: false),
                                                         console: drivers.console)
        defer { server?.stop() }
        // `settings set` from another process applies at the next session: the watcher prepares a new
        // snapshot off the loop as soon as the database changes.
        // Sync (docs/SYNC.md): pushes completed sessions from its own thread; idle until enrolled.
        let pusher = SyncPusher(store: store, report: { console.writeLine($0) })
        pusher.start()
        defer { pusher.stop() }
        let watcher = try? DataDirectoryWatcher(
            directory: store.location.directory,
            prefix: (store.location.databasePath as NSString).lastPathComponent,
            onChange: { keeper.refresh(); pusher.storeChanged() })
        if watcher == nil {
            drivers.console.writeLine("Settings changes cannot be watched here; send SIGHUP to apply them (`systemctl reload chronoception`).")
        }
        defer { watcher?.stop() }
        while true {
            let controller = DeviceDaemonController(keeper: keeper, board: drivers.board.name, pressHint: drivers.pressHint,
                                                    soundStatus: { soundStatus })
            let motor = drivers.motorSettings
            let loop = try SessionLoop(
                button: drivers.button, motor: drivers.motor, sound: sound.output, controller: controller,
                sinks: LoopSinks(console: drivers.console, stateFile: options.stateFileLocation,
                                 recorder: options.recorder(store: store, console: drivers.console, also: [library, SyncNudgingRecorder(pusher: pusher)]),
                                 events: events),
                settings: SessionLoop.Settings(onsetLatency: motor.onsetLatency, safeMaximumOn: motor.safeMaximumOn,
                                               realtimePriority: options.noRealtime ? nil : RealtimeScheduling.defaultPriority,
                                               reloadOnHangup: hangupReloads))
            keeper.connect(loop.messenger)
            drivers.quitRelay.connect(loop.stopper)
            device.report(setup: drivers.setup(sound: soundOpened ? soundStatus : nil))
            device.attach(DaemonHandle(loop: loop, events: events))
            defer { device.attach(nil) }
            let report: SessionLoop.Report
            do {
                report = try LoopThread.run(loop)
            } catch let error as EvdevError where error.kind == .deviceGone {
                // The loop has recorded a running session as interrupted; wait for the device to return.
                drivers.close()
                driversOpen = false
                guard let reopened = try openDriversWaitingForButton(lost: error.detail, hangupReloads: hangupReloads) else { return }
                drivers = reopened
                driversOpen = true
                continue
            }
            let unplugged = (drivers.button as? EvdevButton)?.isUnplugged() ?? false
            drivers.close()
            driversOpen = false
            if unplugged, case .stopped = report.ending {
                guard let reopened = try openDriversWaitingForButton(lost: "the button's input device was unplugged",
                                                                     hangupReloads: hangupReloads) else { return }
                drivers = reopened
                driversOpen = true
                continue
            }
            // Sessions the store could not keep were put in fallback files; the daemon says so as it ends.
            if let failure = UnsavedSessionLog.process.failure { throw failure }
            // Stopping the daemon is its normal end: SIGTERM (systemd), SIGINT (Ctrl-C), SIGQUIT
            // (Ctrl-\) and, from a terminal, SIGHUP (it closed) all exit 0, so `Restart=on-failure`
            // does not start it again (docs/EXIT-CODES.md).
            if case .signal(let number) = report.ending, ![SIGTERM, SIGINT, SIGQUIT, SIGHUP].contains(number) {
                throw ExitCode(128 + number)
            }
            return
        }
    }

    /// Opens the board's drivers; while an input-device button is missing (not plugged in yet, or
    /// unplugged), says so once and waits for a device to appear instead of failing. A stop signal
    /// ends the wait as it ends the loop: nil, and `run` exits 0 (SIGHUP only when it stops, see
    /// `hangupReloads`).
    private func openDriversWaitingForButton(lost: String? = nil, hangupReloads: Bool) throws -> BoardDrivers? {
        var announced = false
        if let lost {
            printError("chronoception: \(lost); waiting for it to come back.")
            announced = true
        }
        // Made only when a wait is needed: the loop installs its own catcher once drivers are open.
        var signals: SignalCatcher?
        while true {
            do {
                let drivers = try BoardDrivers(boardName: options.board, flags: options.flags, bell: options.bell,
                                               keyHoldMilliseconds: options.keyHoldMilliseconds, motorLog: options.motorLog)
                if announced { drivers.console.writeLine("\(lost == nil ? "Found the button" : "The button is back"): \(drivers.buttonIntroduction ?? drivers.board.name)") }
                return drivers
            } catch let error as EvdevError where error.kind == .noSuchDevice || error.kind == .deviceGone {
                if !announced {
                    printError("chronoception: \(error)\nWaiting for the device to be plugged in.")
                    announced = true
                }
                if signals == nil { signals = try SignalCatcher(reloadOnHangup: hangupReloads) }
                let catcher = signals!
                EvdevDeviceFinder().waitForNewDevices(timeoutMilliseconds: 2000, wakeDescriptor: catcher.wakeDescriptor)
                if catcher.drain().contains(where: { $0 != SIGHUP || !hangupReloads }) {
                    printError("chronoception: stopped while waiting for the button's input device.")
                    return nil
                }
            }
        }
    }
}
