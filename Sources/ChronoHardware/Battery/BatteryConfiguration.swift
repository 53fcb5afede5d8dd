/// Where a board's battery is read (a board file's `battery:` section, docs/HARDWARE.md). A board
/// without the section has no battery: nothing is read and nothing changes.
public enum BatteryConfiguration: Sendable, Equatable {
    /// A fuel gauge the kernel exposes in the power-supply class: `/sys/class/power_supply/NAME/`
    /// gives `capacity` (percent), `status` and, when the driver has it, `voltage_now` (µV).
    case powerSupply(name: String)
    /// A voltage-only board (a UPS HAT's INA219 through `ina2xx`): the hwmon device whose `name` file
    /// says `name`, its `in<input>_input` in millivolts, turned into percent by the board's curve.
    case hwmon(name: String, input: Int, curve: DischargeCurve)

    /// How `board show` names it.
    public var description: String {
        switch self {
        case .powerSupply(let name): return "power_supply \(name) (/sys/class/power_supply/\(name))"
        case .hwmon(let name, let input, let curve):
            let points = curve.points.map { "\($0.millivolts) mV = \($0.percent) %" }.joined(separator: ", ")
            return "hwmon \(name) in\(input)_input, curve \(points)"
        }
    }
}
