import ChronoCore

/// The timing benchmark's load: `count` absolute deadlines `period` apart, each marked by a short motor
/// pulse that is due exactly at the deadline. It goes through the same path as a Passive boundary —
/// predicted ahead, the timerfd armed at the pulse's instant, the motor switched by `MotorGate` — so the
/// lateness the recording motor sees (driver call instant − deadline) is the session loop's own.
///
/// Deadline k is `first + k × period`, never "previous + period": no error can accumulate.
public final class DeadlineBenchController: LoopController {
    public let count: Int
    public let period: TimeSpan
    public let pulseLength: TimeSpan
    /// The first deadline comes this long after the loop starts (threads and memory settle first).
    public let lead: TimeSpan
    public private(set) var deadlines: [MonotonicInstant] = []
    /// When the loop handled each deadline (read on the loop thread): the lateness of a deadline whose
    /// whole pulse had passed before the loop woke, so that a stall is counted rather than dropped.
    public private(set) var handledAt: [MonotonicInstant] = []
    private var first = MonotonicInstant.zero
    private var done = 0

    public init(count: Int, period: TimeSpan, pulseLength: TimeSpan = .milliseconds(1), lead: TimeSpan = .milliseconds(200)) {
        self.count = count
        self.period = period
        self.pulseLength = pulseLength
        self.lead = lead
        deadlines.reserveCapacity(count)
        handledAt.reserveCapacity(count)
    }

    public func start(at now: MonotonicInstant) -> [LoopAction] {
        first = now + lead
        return []
    }

    public var nextDeadline: MonotonicInstant? {
        done < count ? first + period * Int64(done) : nil
    }

    public func handle(_ event: SessionEvent) -> [LoopAction] {
        guard case .deadline = event, let due = nextDeadline else { return [] }
        done += 1
        deadlines.append(due)
        handledAt.append(MonotonicClock.now())
        return [.vibrate(pulse(at: due))]
    }

    public func predictedVibrations() -> [PlannedVibration] {
        nextDeadline.map { [pulse(at: $0)] } ?? []
    }

    public func vibrationStarted(_ vibration: PlannedVibration, firedAt: MonotonicInstant) {}

    public func stop(at now: MonotonicInstant, reason: String) -> [LoopAction] {
        done = count
        return []
    }

    public var isFinished: Bool { done >= count }

    private func pulse(at due: MonotonicInstant) -> PlannedVibration {
        PlannedVibration(label: "bench", due: due, pulses: [.init(offset: .zero, length: pulseLength)])
    }
}
