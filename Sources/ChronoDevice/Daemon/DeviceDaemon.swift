import ChronoAPI
import ChronoCommandLine
import ChronoCore
import ChronoHardware
import ChronoRuntime
import ChronoStore
import Foundation

/// The device daemon (`chronoception run`, SPEC §7) put together: the board's drivers, the store, one
/// event hub, the device API, the sync pusher, the data-directory watcher and the loop thread, in the
/// order they start and the reverse order they stop; the loop is built again when an input-device
/// button comes back. Takes values the command line has already parsed and checked.
public struct DeviceDaemon {
    /// Everything the daemon is started with.
    public struct Configuration {
        /// The writable store (owed health records already delivered).
        public var store: ChronoStore
        /// The settings read at start (Fear opt-in: whether the sound is opened at all).
        public var settings: StoreSettings
        /// The command line's session choices; they set what the first idle tap starts.
        public var flags: SessionFlags
        /// The board, state file, real-time scheduling and JSON lines.
        public var live: LiveOptions
        /// The device API's listeners; nil: no API and no web companion.
        public var api: APIServerConfiguration?
        /// SIGHUP reloads the board file and the settings (a service); false: it stops the daemon as
        /// Ctrl-C does (started from a terminal, which closed).
        public var hangupReloads: Bool
        /// The first-boot problem marker: while it exists the start cue is `setupProblem`
        /// (`/var/lib/chronoception/first-boot-problems` on the device; tests point elsewhere).
        public var firstBootProblemsPath: String
        /// Where the battery's sysfs is (`/sys`; tests give a temporary tree) and how often it is read.
        public var batteryRoot = "/sys"
        public var batteryPollInterval = TimeSpan.seconds(60)
        /// How the device powers off at the battery's critical level (`systemctl poweroff`; the system
        /// unit's request file; tests give a stand-in).
        public var powerOff = PowerOff.standard

        public init(store: ChronoStore, settings: StoreSettings, flags: SessionFlags, live: LiveOptions,
                    api: APIServerConfiguration?, hangupReloads: Bool,
                    firstBootProblemsPath: String = "/" + FirstBootPlan.Path.problems) {
            self.store = store
            self.settings = settings
            self.flags = flags
            self.live = live
            self.api = api
            self.hangupReloads = hangupReloads
            self.firstBootProblemsPath = firstBootProblemsPath
        }
    }

    private let configuration: Configuration

    public init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// Runs until stopped. Returns the exit status: 0 for a stop signal (SIGTERM, SIGINT, SIGQUIT,
    /// SIGHUP: the daemon's normal end, so `Restart=on-failure` does not start it again), 128 + the
    /// signal for any other. Throws `InvalidSessionChoice` when the first session's flags make no
    /// session, a `CommandFailure` when sessions could not be saved, and the drivers' errors.
    public func run() throws -> Int32 {
        let store = configuration.store, flags = configuration.flags, live = configuration.live
        let hangupReloads = configuration.hangupReloads
        let buttonWait = ButtonWait(live: live, flags: flags, hangupReloads: hangupReloads)
        guard var drivers = try buttonWait.openDrivers() else { return 0 }
        var driversOpen = true
        defer { if driversOpen { drivers.close() } }
        do {
            // The first session's flags are checked now, not at the first tap.
            _ = try SessionResolver.configuration(flags: flags, settings: configuration.settings.session, board: BoardTiming(drivers.board))
        } catch {
            throw InvalidSessionChoice(underlying: error)
        }
        let console = drivers.console
        let library = StoreDeviceLibrary(store: store, flags: flags, board: drivers.board, boardSource: drivers.boardSource,
                                         bootedSlot: BootedSlot.read(), report: { console.writeLine($0) })
        // Sound is opened once, for the life of the daemon, when Fear may be used at all (the flag or
        // the setting at start; turning `fear-mode` on later needs a restart to open the device).
        var sound: (output: SoundOutput?, status: SoundStatus) = (nil, .inaudible(reason: "Fear Mode was not opted into when the device started"))
        let soundOpened = SessionResolver.fearPermission(flags: flags, settings: configuration.settings.session).allowed
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
        let events = DeviceEventHub()
        let device = DaemonDevice(hub: events, refreshSnapshot: { keeper.refresh() })
        // Before the server exists, so its connection caps are drawn from the raised limit.
        console.writeLine(DescriptorLimit.raiseToHardLimit().line)
        let server = configuration.api.flatMap { DaemonAPIServer.start(store: store, device: device, configuration: $0, console: console) }
        defer { server?.stop() }
        // On a desktop, reminders also go to the session bus's notification service (none: one line, off).
        let notifier = DesktopNotifier.start(companionURL: server?.companionURL, report: { console.writeLine($0) })
        defer { notifier?.stop() }
        // `settings set` from another process applies at the next session: the watcher prepares a new
        // snapshot off the loop as soon as the database changes.
        // Sync (docs/SYNC.md): pushes completed sessions from its own thread; idle until enrolled.
        let pusher = SyncPusher(store: store, report: { console.writeLine($0) })
        pusher.start()
        defer { pusher.stop() }
        let watcher = try? DataDirectoryWatcher(
            directory: store.location.directory,
            prefixes: [(store.location.databasePath as NSString).lastPathComponent, UpdateRecord.fileName],
            onChange: { keeper.refresh(); pusher.storeChanged() })
        if watcher == nil {
            drivers.console.writeLine("Settings changes cannot be watched here; send SIGHUP to apply them (`systemctl reload chronoception`).")
        }
        defer { watcher?.stop() }
        // The battery, on its own thread (a board without one: none, and nothing about batteries happens).
        let battery = drivers.board.battery.map { configuration in
            BatteryPoller(gauge: BatteryGauge(configuration, root: self.configuration.batteryRoot),
                          interval: self.configuration.batteryPollInterval, report: { console.writeLine($0) })
        }
        battery?.start()
        defer { battery?.stop() }
        let powerOff = PowerOffRunner(powerOff: configuration.powerOff, report: { console.writeLine($0) })
        // Once per start, when the loop has armed the button: the ready cue, or the setup-problem cue
        // while the image's first-boot apply left problems (docs/FIRST-BOOT.md). Either way it trains.
        let setupProblems = FileManager.default.fileExists(atPath: configuration.firstBootProblemsPath)
        if setupProblems {
            drivers.console.writeLine("The first-boot file had problems (listed in /\(FirstBootPlan.Path.report)): playing the setup-problem cue; the device trains as usual. Fix chronoception.txt on the boot partition.")
        }
        var startCue: HapticCue? = HapticCue.startup(setupProblems: setupProblems)
        while true {
            let controller = DeviceDaemonController(keeper: keeper, board: drivers.board.name, pressHint: drivers.pressHint,
                                                    soundStatus: { soundStatus }, startCue: startCue)
            startCue = nil
            if let notifier { controller.reminderNotifier = { @Sendable reminder in notifier.notify(reminder) } }
            controller.powerOff = { powerOff.run() }
            let motor = drivers.motorSettings
            let loop = try SessionLoop(
                button: drivers.button, motor: drivers.motor, sound: sound.output, controller: controller,
                sinks: LoopSinks(console: drivers.console, stateFile: live.stateFile,
                                 recorder: live.recorder(store: store, console: drivers.console, also: [library, SyncNudgingRecorder(pusher: pusher)]),
                                 events: events),
                settings: SessionLoop.Settings(onsetLatency: motor.onsetLatency, safeMaximumOn: motor.safeMaximumOn,
                                               realtimePriority: live.realtimePriority,
                                               reloadOnHangup: hangupReloads))
            keeper.connect(loop.messenger)
            battery?.connect(loop.messenger)
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
                guard let reopened = try buttonWait.openDrivers(lost: error.detail) else { return 0 }
                drivers = reopened
                driversOpen = true
                continue
            }
            let unplugged = (drivers.button as? EvdevButton)?.isUnplugged() ?? false
            drivers.close()
            driversOpen = false
            if unplugged, case .stopped = report.ending {
                guard let reopened = try buttonWait.openDrivers(lost: "the button's input device was unplugged") else { return 0 }
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
                return 128 + number
            }
            return 0
        }
    }
}
