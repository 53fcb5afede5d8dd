/// One validated reading of the battery as the hardware gives it (`PowerSupplyValues` builds it from
/// sysfs text): the charge in percent, the power-supply class's status, and the voltage when the board
/// reports one. The device turns it into the core's `BatteryReading` for the battery rules.
public struct BatterySample: Sendable, Equatable {
    /// The power-supply class's `status` (include/linux/power_supply.h).
    public enum Status: String, Sendable, Equatable, CaseIterable {
        case charging
        case discharging
        case full
        /// On external power, neither charging nor discharging (the kernel's "Not charging").
        case notCharging = "not-charging"
        /// The gauge does not say; a voltage-only board always.
        case unknown
    }

    public var percent: Int
    public var status: Status
    public var millivolts: Int?

    public static let percentRange = 0...100
    /// A single LiPo cell or a pack of up to a few in series: anything outside is a misread.
    public static let millivoltRange = 1...30_000

    public init(percent: Int, status: Status, millivolts: Int? = nil) {
        self.percent = percent
        self.status = status
        self.millivolts = millivolts
    }
}
