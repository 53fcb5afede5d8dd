import ChronoCore

/// Runs one session through the real engine on a virtual clock: no waiting, no devices.
///
/// Inputs are fed by `EventFeeding`, exactly as the device's loop feeds them: in time order, each
/// preceded by the engine's deadlines up to its instant, at their exact instants. After the last input the clock
/// runs on through the remaining deadlines, so a Passive session without input completes.
/// An `.endRequested` input ends observation: nothing after it is fed.
public enum VirtualClock {
    /// Everything that happened, in the order the engine produced it.
    public struct Transcript: Sendable {
        public var effects: [SessionEffect]
        /// The engine's final outcome; nil when the session was still running when observation ended.
        public var outcome: SessionOutcome?
        /// The engine as it was at the end, for inspection.
        public var engine: SessionEngine
        /// Every time the engine asked for a deadline earlier than the instant it had already seen.
        public var deadlinesInThePast: [String]
        /// Inputs not fed because observation had ended.
        public var inputsAfterEnd: Int

        /// The outcome, with a session still running when observation ended settled as interrupted at
        /// the last instant seen: what the device would record if the program died there.
        public func settledOutcome(reason: String) -> SessionOutcome {
            if let outcome { return outcome }
            var settled = engine
            _ = settled.interrupt(at: effects.compactMap(\.instant).max() ?? engine.startedAt, reason: reason)
            return settled.outcome!
        }
    }

    /// The most deadlines one session may ask for; a guard against a runaway engine.
    static let deadlineLimit = 1_000_000

    public static func run(
        configuration: SessionConfiguration,
        startedAt: MonotonicInstant = .zero,
        soundAudible: Bool,
        inputs: [SessionEvent]
    ) -> Transcript {
        var engine = SessionEngine(configuration: configuration, startedAt: startedAt, soundAudible: soundAudible)
        var effects = engine.begin()
        var pastDeadlines: [String] = []
        var now = startedAt

        func check(after event: String) {
            if let deadline = engine.nextDeadline, deadline < now {
                pastDeadlines.append("after \(event) at \(now.nanoseconds) ns the next deadline is \(deadline.nanoseconds) ns")
            }
        }

        // The same feeding as the device's loop (`EventFeeding`), with every deadline left after the
        // last input: the clock runs on until the session asks for none.
        let fed = EventFeeding.feed(inputs, deadlinesUpTo: nil, nextDeadline: { engine.nextDeadline },
                                    deadlineLimit: deadlineLimit) { event in
            now = max(now, event.instant)
            effects += engine.handle(event)
            if case .deadline = event {
                check(after: "a deadline")
                return true
            }
            check(after: "an input")
            // An `.endRequested` input ends observation: nothing after it is fed.
            if case .endRequested = event { return false }
            return true
        }.inputsFed
        return Transcript(
            effects: effects, outcome: engine.outcome, engine: engine,
            deadlinesInThePast: pastDeadlines, inputsAfterEnd: inputs.count - fed)
    }
}
