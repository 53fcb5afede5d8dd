import ChronoCore
import ChronoHardware

/// The real-time loop: one thread, one wait, absolute deadlines.
///
/// Each turn it brings the motor to its planned state, then waits (`LoopDriver.wait`) until the earliest
/// of the controller's next deadline and the motor's next edge, or until the button, the mailbox (stop
/// requests, controller messages, sound status) or a signal is ready. When it wakes it first brings the
/// motor to its planned state (so a boundary's pulse is not delayed by the work that follows), then
/// feeds the controller, in time order, the button edges with their own timestamps and the deadlines
/// that are due, each with its own instant — exactly as `VirtualClock` feeds the engine on a virtual
/// clock — and executes what comes back: vibrations through the `MotorGate`, the aversive sound by
/// asking the sound worker, and console lines, state-file updates and records through two workers
/// (records; display). Nothing slow runs here. (`SessionLoop+Turn.swift`: the turns;
/// `SessionLoop+Actions.swift`: what the controller's actions become.)
///
/// In the product the driver is `KernelLoopDriver` (a timerfd armed at absolute CLOCK_MONOTONIC
/// instants, `ppoll` with no timeout, worker threads); tests give a virtual one (ChronoTesting's
/// `VirtualLoopDriver`) and run the same loop on virtual time.
///
/// On every way out — the controller finishing, a stop signal, a stop request, a thrown error — the
/// motor is switched off before `run()` returns or rethrows, the controller is told to stop (so a
/// running session is recorded as interrupted), and the workers are drained.
public final class SessionLoop {
    /// How the loop runs.
    public struct Settings: Sendable {
        /// The motor's spin-up time: vibrations are commanded this much before they are due.
        public var onsetLatency: TimeSpan
        /// The board's safe maximum on-time.
        public var safeMaximumOn: TimeSpan
        /// Ask for SCHED_FIFO (at this priority) for the loop thread; nil: do not ask.
        public var realtimePriority: Int32?
        /// Lock memory (`mlockall`) when real-time is asked for.
        public var lockMemory: Bool
        /// Turn SIGINT/SIGTERM/SIGHUP/SIGQUIT into an orderly stop (commands: yes; tests: no).
        public var catchSignals: Bool
        /// SIGHUP asks the controller to reload (`ControllerMessage.hangup`) instead of stopping: the
        /// daemon's convention. Only with `catchSignals`.
        public var reloadOnHangup: Bool

        public init(onsetLatency: TimeSpan = .zero, safeMaximumOn: TimeSpan = .milliseconds(1000),
                    realtimePriority: Int32? = RealtimeScheduling.defaultPriority, lockMemory: Bool = true,
                    catchSignals: Bool = true, reloadOnHangup: Bool = false) {
            self.onsetLatency = onsetLatency
            self.safeMaximumOn = safeMaximumOn
            self.realtimePriority = realtimePriority
            self.lockMemory = lockMemory
            self.catchSignals = catchSignals
            self.reloadOnHangup = reloadOnHangup
        }
    }

    /// Why the loop ended.
    public enum Ending: Sendable, Equatable {
        /// The controller finished.
        case finished
        /// A stop signal arrived (its number).
        case signal(Int32)
        /// A stop was requested, or an input was lost.
        case stopped(reason: String)
    }

    /// What happened, for the command to report.
    public struct Report: Sendable {
        public var ending: Ending
        public var realtime: RealtimeScheduling.Outcome?
        /// How many times the safe maximum cut the motor.
        public var motorForcedStops: Int
    }

    let button: ButtonInput?
    let controller: LoopController
    let sinks: LoopSinks
    let settings: Settings
    let driver: LoopDriver
    let mailbox: LoopMailbox
    let gate: MotorGate
    /// The store's side: recorder calls, jobs that read the store (snapshots, replies) and the
    /// `sessionFinished` event, which must not reach a client before the session's record is saved.
    let recordWriter: LoopWorker
    /// What people watch: console lines, the state file and the live events. Its own worker, so a store
    /// that is busy (another process holding the write lock for seconds) never holds back the state
    /// file or the live card.
    let displayWriter: LoopWorker
    let soundPlayer: SoundPlayer?
    let statePublisher: StatePublisher?
    var lastState: DeviceState?

    /// The product's loop, on the kernel's clock and wait (`KernelLoopDriver`).
    /// - Parameters:
    ///   - button: nil for controllers that take no input (the benchmark).
    ///   - sound: an output already checked and prepared; played on the sound worker only.
    public convenience init(button: ButtonInput?, motor: MotorOutput, sound: SoundOutput?, controller: LoopController,
                            sinks: LoopSinks, settings: Settings) throws {
        try self.init(button: button, motor: motor, sound: sound, controller: controller, sinks: sinks, settings: settings,
                      driver: KernelLoopDriver())
    }

    /// A loop on the given clock and wait (tests: a virtual driver).
    public init(button: ButtonInput?, motor: MotorOutput, sound: SoundOutput?, controller: LoopController,
                sinks: LoopSinks, settings: Settings, driver: LoopDriver) throws {
        self.button = button
        self.controller = controller
        self.sinks = sinks
        self.settings = settings
        self.driver = driver
        let mailbox = try LoopMailbox()
        self.mailbox = mailbox
        gate = MotorGate(motor: motor, plan: MotorPlan(onsetLatency: settings.onsetLatency, safeMaximumOn: settings.safeMaximumOn),
                         clock: { [driver] in driver.now() })
        recordWriter = driver.makeWorker(.records)
        displayWriter = driver.makeWorker(.display)
        statePublisher = sinks.stateFile.map { StatePublisher(file: $0, console: sinks.console) }
        soundPlayer = sound.map { SoundPlayer(sound: $0, worker: driver.makeWorker(.sound), onFailure: { mailbox.post(.soundLost(reason: $0)) }) }
    }

    /// A handle other threads may use to stop the loop.
    public var stopper: LoopStopper { LoopStopper(mailbox: mailbox) }

    /// A handle other threads may use to message the controller (snapshots, requests).
    public var messenger: LoopMessenger { LoopMessenger(mailbox: mailbox) }

    /// Runs on the calling thread (which becomes the real-time loop thread) until the controller is
    /// finished or the loop is stopped. The motor is off when this returns or throws.
    public func run() throws -> Report {
        let realtime = settings.realtimePriority.map { RealtimeScheduling.apply(priority: $0, lockMemory: settings.lockMemory) }
        if let realtime, !realtime.refusals.isEmpty { postLine(realtime.line) }
        let signals = settings.catchSignals ? try SignalCatcher(reloadOnHangup: settings.reloadOnHangup) : nil
        var ending = Ending.finished
        var failure: Error?
        do {
            ending = try turns(signals: signals)
        } catch {
            failure = error
            gate.switchOff()
            let now = driver.now()
            execute(controller.stop(at: now, reason: "the loop failed: \(error)"), now: now)
        }
        gate.switchOff()
        // Clean-up may block (draining the workers, waiting for a sound to end): not at real-time priority.
        if realtime?.fifo == true { RealtimeScheduling.leave() }
        for case .controller(.request(_, let reply)) in mailbox.close() {
            recordWriter.post { reply(.refused(.stopping)) }
        }
        soundPlayer?.finish()
        // The display writer first: its last jobs may hand off-loop work on to the record writer.
        displayWriter.finish()
        recordWriter.finish()
        signals?.retire()
        if let failure { throw failure }
        return Report(ending: ending, realtime: realtime, motorForcedStops: gate.forcedStops)
    }
}

/// Stops a running loop from another thread (a test, the daemon's shutdown, the quit key).
public struct LoopStopper: Sendable {
    let mailbox: LoopMailbox

    public func stop(reason: String) {
        mailbox.post(.stop(reason: reason))
    }
}

/// A loop failure that is a bug, not a device problem.
public enum LoopError: Error, CustomStringConvertible {
    case deadlineDidNotAdvance(MonotonicInstant)

    public var description: String {
        switch self {
        case .deadlineDidNotAdvance(let instant):
            return "the controller asked again for the deadline \(instant) it had just been given"
        }
    }
}
