import ChronoCore
import ChronoHardware
#if canImport(Glibc)
import Glibc
#endif

/// The real-time loop: one thread, one wait, absolute CLOCK_MONOTONIC deadlines.
///
/// Each turn it arms its `timerfd` (`TFD_TIMER_ABSTIME`) at the earliest of the controller's next
/// deadline and the motor's next edge, then waits in `ppoll` — with no timeout — on the button's
/// descriptor, the timer, a wake-up eventfd (stop requests, sound status) and the signal pipe. When it
/// wakes it first brings the motor to its planned state (so a boundary's pulse is not delayed by the
/// work that follows), then feeds the controller, in time order, the button edges with their own
/// timestamps and the deadlines that are due, each with its own instant — exactly as `VirtualClock`
/// feeds the engine on a virtual clock — and executes what comes back: vibrations through the
/// `MotorGate`, the aversive sound by signalling the sound thread, and console lines, state-file
/// updates and records through two writer threads (records; display). Nothing slow runs here.
///
/// On every way out — the controller finishing, a stop signal, a stop request, a thrown error — the
/// motor is switched off before `run()` returns or rethrows, the controller is told to stop (so a
/// running session is recorded as interrupted), and the writers are drained.
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

    private let button: ButtonInput?
    private let controller: LoopController
    private let sinks: LoopSinks
    private let settings: Settings
    private let mailbox: LoopMailbox
    private let timer: AbsoluteTimer
    private let gate: MotorGate
    /// The store's thread: recorder calls, jobs that read the store (snapshots, replies) and the
    /// `sessionFinished` event, which must not reach a client before the session's record is saved.
    private let recordWriter = HandoffWriter(name: "chronoception records")
    /// What people watch: console lines, the state file and the live events. Its own thread, so a
    /// store that is busy (another process holding the write lock for seconds) never holds back the
    /// state file or the live card.
    private let displayWriter = HandoffWriter(name: "chronoception display")
    private let soundPlayer: SoundPlayer?
    private let statePublisher: StatePublisher?
    private var lastState: RuntimeState?

    /// - Parameters:
    ///   - button: nil for controllers that take no input (the benchmark).
    ///   - sound: an output already checked and prepared; played on the sound thread only.
    public init(button: ButtonInput?, motor: MotorOutput, sound: SoundOutput?, controller: LoopController,
                sinks: LoopSinks, settings: Settings) throws {
        self.button = button
        self.controller = controller
        self.sinks = sinks
        self.settings = settings
        let mailbox = try LoopMailbox()
        self.mailbox = mailbox
        timer = try AbsoluteTimer()
        gate = MotorGate(motor: motor, plan: MotorPlan(onsetLatency: settings.onsetLatency, safeMaximumOn: settings.safeMaximumOn))
        statePublisher = sinks.stateFile.map { StatePublisher(file: $0, console: sinks.console) }
        soundPlayer = sound.map { SoundPlayer(sound: $0, onFailure: { mailbox.post(.soundLost(reason: $0)) }) }
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
            ending = try turn(signals: signals)
        } catch {
            failure = error
            gate.switchOff()
            execute(controller.stop(at: MonotonicClock.now(), reason: "the loop failed: \(error)"), now: MonotonicClock.now())
        }
        gate.switchOff()
        // Clean-up may block (draining the writers, waiting for a sound to end): not at real-time priority.
        if realtime?.fifo == true { RealtimeScheduling.leave() }
        for case .controller(.request(_, let reply)) in mailbox.close() {
            recordWriter.post { reply(.refused(.stopping)) }
        }
        soundPlayer?.finish()
        recordWriter.finish()
        displayWriter.finish()
        signals?.retire()
        if let failure { throw failure }
        return Report(ending: ending, realtime: realtime, motorForcedStops: gate.forcedStops)
    }

    private func turn(signals: SignalCatcher?) throws -> Ending {
        var descriptors = [mailbox.wakeup.descriptor, timer.descriptor]
        if let signals { descriptors.append(signals.descriptor) }
        if let button { descriptors.append(button.pollDescriptor) }
        var poller = Poller(descriptors)
        var ending = Ending.finished

        let start = MonotonicClock.now()
        execute(controller.start(at: start), now: start)
        while !controller.isFinished {
            var now = MonotonicClock.now()
            gate.predict(controller.predictedVibrations(), now: now)
            try applyMotor(now: now)
            let wake = [controller.nextDeadline, gate.nextWake(after: now)].compactMap { $0 }.min()
            try timer.arm(at: wake)

            let ready = try poller.wait()
            now = MonotonicClock.now()
            if ready.readable.contains(timer.descriptor) { timer.acknowledge() }
            // Motor edges first: a pulse due now must not wait for the work below.
            try applyMotor(now: now)

            // Within one wake-up, everything stamped up to now goes first, in instant order (the shared
            // `EventFeeding`, as on the virtual clock): the button's edges with their own (earlier)
            // kernel timestamps, sound lost as noticed now, and each deadline due before or between
            // them at its own instant. Then what only has "now": stop requests, controller messages, signals.
            var inputs: [SessionEvent] = []
            if let button, ready.readable.contains(button.pollDescriptor) {
                for edge in try button.readEdges() {
                    inputs.append(.button(RawButtonEdge(pressed: edge.direction == .pressed,
                                                        at: MonotonicInstant(nanoseconds: edge.monotonicNanoseconds))))
                }
                now = max(now, MonotonicClock.now())
            }
            let messages = ready.readable.contains(mailbox.wakeup.descriptor) ? mailbox.takeAll() : []
            for case .soundLost(let reason) in messages {
                postLine("Sound failed: \(reason)")
                inputs.append(.soundLost(at: now))
            }
            try feed(inputs, upTo: now)
            for message in messages {
                switch message {
                case .stop(let reason):
                    if ending == .finished { ending = .stopped(reason: reason) }
                    execute(controller.stop(at: now, reason: reason), now: now)
                case .soundLost:
                    break
                case .controller(let message):
                    execute(controller.receive(message, at: now), now: now)
                }
            }
            if let signals, ready.readable.contains(signals.descriptor) {
                for number in signals.drain() {
                    if number == SIGHUP && settings.reloadOnHangup {
                        postLine("SIGHUP: reading the board file and the settings again.")
                        execute(controller.receive(.hangup, at: now), now: now)
                    } else if ending == .finished {
                        ending = .signal(number)
                        execute(controller.stop(at: now, reason: "stopped by \(Self.signalName(number))"), now: now)
                    }
                }
            }
            if let button, ready.hungUp.contains(button.pollDescriptor), !ready.readable.contains(button.pollDescriptor) {
                let reason = "the button input closed"
                if ending == .finished { ending = .stopped(reason: reason) }
                execute(controller.stop(at: now, reason: reason), now: now)
            }
            // Deadlines that fell due meanwhile (a request that started a session at `now` asks for none yet).
            try feed([], upTo: now)
        }
        // A session that ended by itself lets its last cue (discarded, session done) play out; a stop
        // request or a signal switches the motor off at once instead.
        if ending == .finished {
            var timerOnly = Poller([timer.descriptor])
            while let wake = gate.nextWake(after: MonotonicClock.now()) {
                try timer.arm(at: wake)
                _ = try timerOnly.wait()
                timer.acknowledge()
                try applyMotor(now: MonotonicClock.now())
            }
        }
        return ending
    }

    /// Feeds a wake-up's stamped inputs and the due deadlines through `EventFeeding`, the order the
    /// virtual clock uses too. `now` is when the actions are executed (the instant the loop acts).
    private func feed(_ inputs: [SessionEvent], upTo now: MonotonicInstant) throws {
        guard !controller.isFinished else { return }
        let fed = EventFeeding.feed(inputs, deadlinesUpTo: now, nextDeadline: { controller.nextDeadline }) { event in
            execute(controller.handle(event), now: now)
            return !controller.isFinished
        }
        if let stalled = fed.stalledAt { throw LoopError.deadlineDidNotAdvance(stalled) }
    }

    private func applyMotor(now: MonotonicInstant) throws {
        for fired in try gate.apply(now: now) {
            controller.vibrationStarted(fired.entry.vibration, firedAt: fired.began)
        }
    }

    private func execute(_ actions: [LoopAction], now: MonotonicInstant) {
        for action in actions {
            switch action {
            case .vibrate(let vibration):
                gate.add(vibration, now: now)
            case .playAversiveSound:
                soundPlayer?.play()
            case .console(let line):
                postLine(line)
            case .state(let state):
                publish(state)
            case .sessionStarted(let record):
                if let recorder = sinks.recorder { recordWriter.post { recorder.sessionStarted(record) } }
            case .sessionFinished(let record):
                if let recorder = sinks.recorder { recordWriter.post { recorder.sessionFinished(record) } }
            case .event(let event):
                guard let events = sinks.events else { break }
                let publishedAt = MonotonicClock.now()
                if case .sessionFinished = event {
                    recordWriter.post { events.deliver(event, publishedAt: publishedAt) }
                } else {
                    displayWriter.post { events.deliver(event, publishedAt: publishedAt) }
                }
            case .offLoop(let job):
                recordWriter.post(job)
            }
        }
    }

    private func postLine(_ line: String) {
        let console = sinks.console
        displayWriter.post { console.writeLine(line) }
    }

    private func publish(_ state: RuntimeState) {
        guard state != lastState else { return }
        lastState = state
        if let publisher = statePublisher { displayWriter.post { publisher.publish(state) } }
        if let events = sinks.events {
            let publishedAt = MonotonicClock.now()
            displayWriter.post { events.deliver(.stateChanged(state), publishedAt: publishedAt) }
        }
    }

    static func signalName(_ number: Int32) -> String {
        switch number {
        case SIGINT: return "SIGINT (Ctrl-C)"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        case SIGQUIT: return "SIGQUIT"
        default: return "signal \(number)"
        }
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
