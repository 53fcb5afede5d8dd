/// One reading of the battery, already validated (the hardware driver's `PowerSupplyValues` builds it
/// from sysfs text): its charge in percent, whether it is charging, and its voltage when the board
/// reports one. The battery rules (`BatteryMonitor`) take readings and the instant they were made.
public struct BatteryReading: Hashable, Sendable {
    /// The power-supply class's `status`, as the rules need it.
    public enum Charge: String, Hashable, Sendable, CaseIterable {
        case charging
        case discharging
        case full
        /// On external power, neither charging nor discharging (the kernel's "Not charging").
        case notCharging = "not-charging"
        /// The gauge does not say (a voltage-only board): treated as discharging, the safe side.
        case unknown
    }

    /// The charge left, 0 to 100.
    public var percent: Int
    public var charge: Charge
    /// The battery's voltage in millivolts, when the board reports it.
    public var millivolts: Int?

    public static let percentRange = 0...100
    /// A single LiPo cell or a pack of up to a few in series: anything outside is a misread.
    public static let millivoltRange = 1...30_000

    /// Nil when a value is outside its range (the driver turns that into a problem message).
    public init?(percent: Int, charge: Charge, millivolts: Int? = nil) {
        guard Self.percentRange.contains(percent) else { return nil }
        if let millivolts, !Self.millivoltRange.contains(millivolts) { return nil }
        self.percent = percent
        self.charge = charge
        self.millivolts = millivolts
    }

    /// On external power: the low-battery states clear and nothing is refused.
    public var isOnExternalPower: Bool { charge == .charging || charge == .full || charge == .notCharging }

    /// `12 %, discharging` — how every surface names the reading.
    public var text: String { "\(percent) %, \(charge.rawValue)" }
}
