/// The one order in which events reach a session (or the device around it), shared by the real-time
/// loop and the virtual clock of `replay` and `simulate`, so both run the same steps in the same order:
///
/// - inputs go in instant order (a stable sort: edges with equal stamps keep their order), whatever
///   order they were noticed in — a button edge stamped by the kernel before a wake-up comes before
///   `sound lost` noticed at that wake-up;
/// - before each input, every deadline due at or before its instant is handled, each at its own
///   instant, in order;
/// - after the inputs, the deadlines due up to `limit` (the loop: now; the virtual clock: all).
public enum EventFeeding {
    /// What happened to a batch.
    public struct Result: Hashable, Sendable {
        /// Inputs handed to `handle` (the rest were left out because `handle` said stop).
        public var inputsFed = 0
        /// Set when a deadline did not advance after being handled (a bug in the receiver); feeding
        /// stopped there rather than spin.
        public var stalledAt: MonotonicInstant?
        /// `handle` said stop.
        public var stopped = false
    }

    /// Feeds `inputs` and the due deadlines to `handle`, which returns false to stop (the session or
    /// the observation ended). `nextDeadline` is asked afresh before every step.
    /// - Parameter limit: feed the deadlines after the last input up to this instant; nil: every one.
    /// - Parameter deadlineLimit: the most deadlines one batch may feed (a guard against a runaway).
    @discardableResult
    public static func feed(
        _ inputs: [SessionEvent], deadlinesUpTo limit: MonotonicInstant?,
        nextDeadline: () -> MonotonicInstant?, deadlineLimit: Int = 1_000_000,
        handle: (SessionEvent) throws -> Bool
    ) rethrows -> Result {
        var result = Result()
        var deadlinesFed = 0
        func deadlines(upTo instant: MonotonicInstant?) throws -> Bool {
            while let deadline = nextDeadline(), instant.map({ deadline <= $0 }) ?? true, deadlinesFed < deadlineLimit {
                deadlinesFed += 1
                guard try handle(.deadline(now: deadline)) else { return false }
                if let next = nextDeadline(), next <= deadline {
                    result.stalledAt = deadline
                    return false
                }
            }
            return true
        }
        let ordered = inputs.enumerated().sorted { a, b in
            a.element.instant != b.element.instant ? a.element.instant < b.element.instant : a.offset < b.offset
        }.map(\.element)
        for input in ordered {
            guard try deadlines(upTo: input.instant), result.stalledAt == nil else {
                result.stopped = result.stalledAt == nil
                return result
            }
            result.inputsFed += 1
            guard try handle(input) else {
                result.stopped = true
                return result
            }
        }
        if try !deadlines(upTo: limit), result.stalledAt == nil { result.stopped = true }
        return result
    }
}
