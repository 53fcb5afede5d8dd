/// The battery levels the device acts on, in percent (the `battery-low`, `battery-stop` and
/// `battery-critical` settings): the low cue at `low`, no new session at `stop` (and a Passive session
/// the battery cannot finish ends early), and at `critical` the session is saved and the device powers
/// off. Always `critical < stop < low`.
public struct BatteryThresholds: Hashable, Sendable {
    public var low: Int
    public var stop: Int
    public var critical: Int

    public static let lowRange = 5...50
    public static let stopRange = 2...30
    public static let criticalRange = 1...20
    public static let standard = BatteryThresholds(uncheckedLow: 15, stop: 5, critical: 3)

    /// Nil unless each level is in its range and `critical < stop < low`.
    public init?(low: Int, stop: Int, critical: Int) {
        guard Self.lowRange.contains(low), Self.stopRange.contains(stop), Self.criticalRange.contains(critical),
              critical < stop, stop < low else { return nil }
        self.init(uncheckedLow: low, stop: stop, critical: critical)
    }

    private init(uncheckedLow low: Int, stop: Int, critical: Int) {
        self.low = low
        self.stop = stop
        self.critical = critical
    }

    /// Why `low`, `stop` and `critical` do not go together (nil: they do), for the settings' messages.
    public static func orderProblem(low: Int, stop: Int, critical: Int) -> String? {
        guard critical < stop, stop < low else {
            return "the battery levels must keep battery-critical < battery-stop < battery-low; they would be \(critical) %, \(stop) % and \(low) %"
        }
        return nil
    }
}
