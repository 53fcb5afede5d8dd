import ChronoCore
import ChronoHardware
#if canImport(Glibc)
import Glibc
#endif

/// The loop's turns: one wait each, then what woke it, in a fixed order.
extension SessionLoop {
    func turns(signals: SignalCatcher?) throws -> Ending {
        let sources = LoopSources(button: button, mailbox: mailbox, signals: signals)
        var ending = Ending.finished

        let start = driver.now()
        execute(controller.start(at: start), now: start)
        while !controller.isFinished {
            var now = driver.now()
            gate.predict(controller.predictedVibrations(), now: now)
            try applyMotor(now: now)
            let wake = [controller.nextDeadline, gate.nextWake(after: now)].compactMap { $0 }.min()
            gate.arm(wake: wake)

            let ready = try driver.wait(until: wake, on: sources)
            now = driver.now()
            // Motor edges first: a pulse due now must not wait for the work below, nor for the plan's
            // own bookkeeping when its switch-on was armed.
            try gate.switchOnIfArmed(now: now)
            try applyMotor(now: now)
            try respond(to: ready, at: now, signals: signals, ending: &ending)
        }
        // A session that ended by itself lets its last cue (discarded, session done) play out; a stop
        // request or a signal switches the motor off at once instead.
        if ending == .finished {
            while let wake = gate.nextWake(after: driver.now()) {
                _ = try driver.wait(until: wake, on: .timeOnly)
                try applyMotor(now: driver.now())
            }
        }
        return ending
    }

    /// Within one wake-up, everything stamped up to now goes first, in instant order (the shared
    /// `EventFeeding`, as on the virtual clock): the button's edges with their own (earlier) kernel
    /// timestamps, sound lost as noticed now, and each deadline due before or between them at its own
    /// instant. Then what only has "now": stop requests, controller messages, signals, a lost button.
    private func respond(to ready: LoopReadiness, at wakeup: MonotonicInstant, signals: SignalCatcher?,
                         ending: inout Ending) throws {
        var now = wakeup
        var inputs: [SessionEvent] = []
        if let button, ready.buttonEdges {
            for edge in try button.readEdges() {
                inputs.append(.button(RawButtonEdge(pressed: edge.direction == .pressed,
                                                    at: MonotonicInstant(nanoseconds: edge.monotonicNanoseconds))))
            }
            now = max(now, driver.now())
        }
        let messages = ready.messages ? mailbox.takeAll() : []
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
        if let signals, ready.signals {
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
        if button != nil, ready.buttonClosed, !ready.buttonEdges {
            let reason = "the button input closed"
            if ending == .finished { ending = .stopped(reason: reason) }
            execute(controller.stop(at: now, reason: reason), now: now)
        }
        // Deadlines that fell due meanwhile (a request that started a session at `now` asks for none yet).
        try feed([], upTo: now)
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
