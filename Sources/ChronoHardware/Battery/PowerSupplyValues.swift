/// The one validator of the battery's sysfs values: the text of `capacity`, `status`, `voltage_now`
/// (power-supply class) or `inN_input` (hwmon) becomes a `BatterySample` or a `BatteryProblem`
/// naming the file and the value. The kernel writes one number or word and a newline; anything else is
/// a misread, a wrong file or a driver fault, and is refused rather than guessed at.
public enum PowerSupplyValues {
    /// sysfs values are one short line; more than this is not one of them.
    public static let maximumBytes = 64

    /// A power-supply device's reading. `voltage` is nil when the driver has no `voltage_now`.
    public static func reading(capacity: String, status: String, voltageMicrovolts: String?,
                               directory: String) throws(BatteryProblem) -> BatterySample {
        let percent = try number(capacity, file: "\(directory)/capacity", what: "a percent",
                                 in: BatterySample.percentRange, unit: "%")
        let charge = try self.charge(status, file: "\(directory)/status")
        var millivolts: Int?
        if let voltageMicrovolts {
            let microvolts = try number(voltageMicrovolts, file: "\(directory)/voltage_now", what: "microvolts",
                                        in: 1_000...30_000_000, unit: "µV")
            millivolts = microvolts / 1000
        }
        return BatterySample(percent: percent, status: charge, millivolts: millivolts)
    }

    /// A voltage-only board's reading: `inN_input` in millivolts through the board's discharge curve.
    public static func reading(millivolts text: String, file: String, curve: DischargeCurve) throws(BatteryProblem) -> BatterySample {
        let millivolts = try number(text, file: file, what: "millivolts", in: BatterySample.millivoltRange, unit: "mV")
        return BatterySample(percent: curve.percent(atMillivolts: millivolts), status: .unknown, millivolts: millivolts)
    }

    /// The power-supply class's `status` words (include/linux/power_supply.h's text).
    public static func charge(_ text: String, file: String) throws(BatteryProblem) -> BatterySample.Status {
        switch trimmed(text) {
        case "Charging": return .charging
        case "Discharging": return .discharging
        case "Full": return .full
        case "Not charging": return .notCharging
        case "Unknown": return .unknown
        default:
            throw BatteryProblem(problem: "\(file) reads \(shown(text)), not a charging status",
                                 fix: "check that the board file names a battery (`type` is Battery), not a charger or USB supply")
        }
    }

    static func number(_ text: String, file: String, what: String, in range: ClosedRange<Int>, unit: String) throws(BatteryProblem) -> Int {
        guard let value = Int(trimmed(text)) else {
            throw BatteryProblem(problem: "\(file) reads \(shown(text)), not \(what)", fix: "check that the board file names the right device, and the driver (`dmesg`)")
        }
        guard range.contains(value) else {
            throw BatteryProblem(problem: "\(file) reads \(value) \(unit), outside \(range.lowerBound)-\(range.upperBound) \(unit)",
                                 fix: "the gauge is not calibrated or misreads; check its driver (`dmesg`) and the wiring")
        }
        return value
    }

    /// The value without the kernel's trailing newline (and nothing else: inner spaces stay wrong).
    static func trimmed(_ text: String) -> String {
        var text = Substring(text)
        while let last = text.last, last == "\n" || last == " " { text = text.dropLast() }
        return String(text)
    }

    /// A value as a message may quote it: printable ASCII, at most 32 characters.
    static func shown(_ text: String) -> String {
        let value = trimmed(text)
        if value.isEmpty { return "nothing" }
        let safe = value.unicodeScalars.prefix(32).map { (0x20..<0x7F).contains($0.value) ? String($0) : "?" }.joined()
        return "\"\(safe)\(value.unicodeScalars.count > 32 ? "…" : "")\""
    }
}
