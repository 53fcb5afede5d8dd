import ChronoCore

/// Runs one session through the real engine on a virtual clock: no waiting, no devices.
///
/// Inputs are fed in time order; before each, the engine's own deadlines up to its instant are
/// handled at their exact instants (the engine does this itself). After the last input the clock
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

        var fed = 0
        for input in inputs.sorted(by: { $0.instant < $1.instant }) {
            // Deadlines before this input, one at a time, so that each is checked.
            var guardCount = 0
            while let deadline = engine.nextDeadline, deadline <= input.instant, guardCount < deadlineLimit {
                now = max(now, deadline)
                effects += engine.handle(.deadline(now: deadline))
                check(after: "a deadline")
                guardCount += 1
            }
            now = max(now, input.instant)
            effects += engine.handle(input)
            check(after: "an input")
            fed += 1
            if case .endRequested = input { break }
        }
        let ended = inputs.contains { if case .endRequested = $0 { return true } else { return false } }
        if !ended {
            var guardCount = 0
            while let deadline = engine.nextDeadline, guardCount < deadlineLimit {
                now = max(now, deadline)
                effects += engine.handle(.deadline(now: deadline))
                check(after: "a deadline")
                guardCount += 1
            }
        }
        return Transcript(
            effects: effects, outcome: engine.outcome, engine: engine,
            deadlinesInThePast: pastDeadlines, inputsAfterEnd: inputs.count - fed)
    }
}
