/// How fast the battery is emptying, estimated from the readings of the current discharge: the drop
/// from the oldest kept reading to the newest over the time between them. Reset when the battery is
/// charged (a new discharge starts). Pure and in integers, so a test gives exact figures.
public struct BatteryDischarge: Hashable, Sendable {
    /// One reading's level at its instant.
    public struct Sample: Hashable, Sendable {
        public var at: MonotonicInstant
        public var percent: Int

        public init(at: MonotonicInstant, percent: Int) {
            self.at = at
            self.percent = percent
        }
    }

    /// The readings of the last `window` (the newest last); older ones are dropped, so the rate follows
    /// what the device draws now (a session's motor, a radio) rather than since boot.
    public private(set) var samples: [Sample] = []

    /// 30 minutes of readings: at the usual one a minute, enough to see a drop of a few percent.
    public static let window = TimeSpan.seconds(30 * 60)
    /// A rate from less than 5 minutes or a 1 % step is the gauge's rounding, not a trend.
    public static let minimumSpan = TimeSpan.seconds(5 * 60)
    /// At most this many samples are kept whatever the polling rate (uevents may come in bursts).
    public static let maximumSamples = 128

    public init() {}

    public mutating func add(percent: Int, at instant: MonotonicInstant) {
        if let last = samples.last, instant < last.at { samples.removeAll() }
        samples.append(Sample(at: instant, percent: percent))
        samples.removeAll { instant - $0.at > Self.window }
        if samples.count > Self.maximumSamples { samples.removeFirst(samples.count - Self.maximumSamples) }
    }

    public mutating func reset() { samples.removeAll() }

    /// The time one percent lasts now; nil while the readings span too short a time or show no drop.
    public var timePerPercent: TimeSpan? {
        guard let first = samples.first, let last = samples.last else { return nil }
        let span = last.at - first.at
        let drop = Int64(first.percent - last.percent)
        guard span >= Self.minimumSpan, drop > 0 else { return nil }
        return TimeSpan(nanoseconds: span.nanoseconds / drop)
    }

    /// How long until the level falls from `percent` to `target` at the current rate (nil: unknown).
    public func timeUntil(_ target: Int, from percent: Int) -> TimeSpan? {
        guard let perPercent = timePerPercent else { return nil }
        return perPercent * Int64(max(0, percent - target))
    }
}
