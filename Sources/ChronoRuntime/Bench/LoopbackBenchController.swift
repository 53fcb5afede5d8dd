import ChronoCore

/// `board check --loopback`'s load: `count` motor pulses at absolute deadlines `period` apart, through
/// the session loop's own path (predicted ahead, the timerfd armed at the pulse, `MotorGate` switching
/// the line), while the loop reads the jumpered loopback input as its button. Every edge the loop
/// handles is kept with its kernel timestamp and the loop's clock at handling; `LoopbackAnalysis` pairs
/// them with `switches`.
///
/// Pulse k is due at `first + k × period`, never "previous + period".
public final class LoopbackBenchController: LoopController {
    public let count: Int
    public let period: TimeSpan
    public let pulseLength: TimeSpan
    /// The first pulse comes this long after the loop starts (threads and memory settle first).
    public let lead: TimeSpan
    /// How long after the last pulse's end the loop keeps reading, for the last edge to arrive.
    public let settle: TimeSpan
    public private(set) var edges: [LoopbackAnalysis.Edge] = []
    private var first = MonotonicInstant.zero
    private var done = 0
    private var finished = false

    /// `pulseLength`: how long each pulse is on; nil, half the period.
    public init(count: Int, period: TimeSpan = .milliseconds(20), pulseLength: TimeSpan? = nil,
                lead: TimeSpan = .milliseconds(200), settle: TimeSpan = .milliseconds(100)) {
        self.count = count
        self.period = period
        self.pulseLength = pulseLength ?? .nanoseconds(period.nanoseconds / 2)
        self.lead = lead
        self.settle = settle
        edges.reserveCapacity(count * 2 + 16)
    }

    /// The motor line's planned switches: each pulse's on at its deadline and off `pulseLength` later.
    public var switches: [LoopbackAnalysis.Switch] {
        (0..<count).flatMap { index -> [LoopbackAnalysis.Switch] in
            let due = first + period * Int64(index)
            return [.init(on: true, due: due), .init(on: false, due: due + pulseLength)]
        }
    }

    public func start(at now: MonotonicInstant) -> [LoopAction] {
        first = now + lead
        return []
    }

    public var nextDeadline: MonotonicInstant? {
        if finished { return nil }
        return done < count ? first + period * Int64(done) : first + period * Int64(count - 1) + pulseLength + settle
    }

    public func handle(_ event: SessionEvent) -> [LoopAction] {
        switch event {
        case .button(let edge):
            edges.append(.init(active: edge.pressed, stamped: edge.at, handled: MonotonicClock.now()))
            return []
        case .deadline:
            guard let due = nextDeadline else { return [] }
            if done < count {
                done += 1
                return [.vibrate(pulse(at: due))]
            }
            finished = true
            return []
        default:
            return []
        }
    }

    public func predictedVibrations() -> [PlannedVibration] {
        done < count ? nextDeadline.map { [pulse(at: $0)] } ?? [] : []
    }

    public func vibrationStarted(_ vibration: PlannedVibration, firedAt: MonotonicInstant) {}

    public func stop(at now: MonotonicInstant, reason: String) -> [LoopAction] {
        finished = true
        return []
    }

    public var isFinished: Bool { finished }

    private func pulse(at due: MonotonicInstant) -> PlannedVibration {
        PlannedVibration(label: "loopback", due: due, pulses: [.init(offset: .zero, length: pulseLength)])
    }
}
